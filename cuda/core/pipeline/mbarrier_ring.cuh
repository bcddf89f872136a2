// The mbarrier ring (device): kStages shared-memory slots, each with a "full" mbarrier that the copy engine
// completes when a tile's bytes have landed.
//
// Tiles are numbered in the order they enter the ring; tile t uses slot t % kStages, whose barrier then
// completes for the (t / kStages)-th time, which gives the parity to wait for. A block may run several products
// through one ring one after another (a stream-K block computes pieces of two or more tiles): reserve() keeps
// numbering on, so slots and phases simply continue. The producer side (reserve, expect, the copies) and the
// consumer side (wait) are separate calls, so that the thread that issues copies need not be one that computes;
// a slot may be refilled once every consumer is done with it (here a block barrier says so).
#pragma once

#include <cstdint>

#include "core/copy/bulk_tensor.cuh"
#include "core/copy/cp_async.cuh"

namespace gemm {

template <int kStages>
class MbarrierRing {
  public:
    explicit __device__ MbarrierRing(uint64_t* full) : full_(full) {}

    // One thread initialises the barriers; a block barrier must follow before any use.
    __device__ void init() const {
        for (int s = 0; s < kStages; ++s) mbarrier_init(smem_addr(&full_[s]), 1);
        mbarrier_init_fence();
    }

    // Numbers the next `count` tiles; returns the number of the first.
    __device__ int reserve(int count) {
        const int first = loaded_;
        loaded_ += count;
        return first;
    }

    __device__ static int slot(int t) { return t % kStages; }
    __device__ uint32_t full_barrier(int t) const { return smem_addr(&full_[t % kStages]); }
    __device__ static uint32_t parity(int t) { return uint32_t(t / kStages) & 1; }

    // Producer: the one arrival of tile t's phase, announcing the bytes its copies will bring.
    __device__ void expect(int t, uint32_t bytes) const { mbarrier_arrive_expect_tx(full_barrier(t), bytes); }

    // Consumer: blocks until tile t has landed.
    __device__ void wait(int t) const { mbarrier_wait(full_barrier(t), parity(t)); }

  private:
    uint64_t* full_;
    int loaded_ = 0;  // tiles numbered so far
};

}  // namespace gemm
