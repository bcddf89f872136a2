// The cp.async ring (device): kStages shared-memory stages, filled kStages - 1 tiles ahead of the one being
// read, one commit group per tile slot and one barrier per K tile: of the block, whose threads share the copies
// of every stage (BlockSync), or of one warp, which copies and reads a ring of its own (WarpSync).
//
// Every tile slot commits a group, empty past the last tile, so that "group i holds tile i" and the
// wait_group counts stay exact. The stage refilled in an iteration is the one read in the previous one: every
// thread of the ring has passed the barrier that followed its last read of it.
#pragma once

#include "core/copy/cp_async.cuh"

namespace gemm {

struct BlockSync {
    __device__ static void sync() { __syncthreads(); }
};
struct WarpSync {
    __device__ static void sync() { __syncwarp(); }
};

template <int kStages, class Sync = BlockSync>
class CpAsyncRing {
  public:
    static_assert(kStages >= 3, "the ring refills the stage read one iteration ago: at least 3 stages");

    // A ring over K tiles [kt_begin, kt_end).
    __device__ CpAsyncRing(int kt_begin, int kt_end) : load_kt_(kt_begin), kt_end_(kt_end) {}

    // Prologue: tiles kt_begin .. kt_begin + kStages - 2 into stages 0 .. kStages - 2 (load(kt, stage) issues
    // one tile's copies), then waits until the first has landed for every thread of the block.
    template <class Load>
    __device__ void fill(const Load& load) {
#pragma unroll
        for (int s = 0; s < kStages - 1; ++s, ++load_kt_) {
            if (load_kt_ < kt_end_) load(load_kt_, s);
            cp_async_commit();
        }
        load_stage_ = kStages - 1;
        cp_async_wait<kStages - 2>();  // group 0 (the first tile) has landed for this thread ...
        Sync::sync();                  // ... and for every thread of the ring
    }

    // Puts the next tile in flight, into the stage read during the previous iteration.
    template <class Load>
    __device__ void refill(const Load& load) {
        if (load_kt_ < kt_end_) load(load_kt_, load_stage_);
        cp_async_commit();
        ++load_kt_;
        load_stage_ = next(load_stage_);
    }

    // After every read of the current stage is issued: waits until the next tile has landed, publishes it to
    // the ring's threads with a barrier (which also frees the current stage for the next refill) and moves to it.
    // Committed groups at this point: kStages - 1 + iterations, so waiting down to kStages - 2 in flight means
    // the next tile is in.
    __device__ void advance() {
        cp_async_wait<kStages - 2>();
        Sync::sync();
        read_stage_ = next(read_stage_);
    }

    __device__ int read_stage() const { return read_stage_; }

  private:
    __device__ static int next(int stage) { return stage + 1 == kStages ? 0 : stage + 1; }

    int load_kt_, kt_end_;
    int load_stage_ = 0, read_stage_ = 0;
};

}  // namespace gemm
