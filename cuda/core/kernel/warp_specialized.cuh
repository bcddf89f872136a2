// The warp-specialised persistent kernel frame of Hopper (device, sm_90a): the block structure every wgmma kernel
// has, written once, around parts that each kernel supplies as types (after CUTLASS 3's kernel / collective split and
// ThunderKittens' producer / consumer / finish):
//   - Schedule: the work units (an output tile over a range of its K tiles) a block takes, and in which order
//     (core/schedule/persistent_tiles.cuh, PersistentTiles);
//   - Producer: the bulk tensor copies that fill one stage of the ring with one K tile of a unit;
//   - Mainloop: a consumer warpgroup's MMAs over a unit's K tiles, into accumulators it keeps in registers;
//   - Epilogue: those accumulators to the output.
// The frame owns what the parts share: the shared storage (the kernel's ring of tiles, then a "full" and an "empty"
// mbarrier per stage), the barriers' initialisation, the roles and their register budgets, and the persistent walk.
// Warpgroup 0 is the producer: it gives registers back (setmaxnreg) and one of its threads issues every copy.
// Warpgroups 1..consumers are the consumers: they take the registers, and for each unit run the mainloop, then hand
// its accumulators to the epilogue while the producer already fills the stages of the next unit.
//
// Why one frame: every Hopper tensor-core rung needs this same structure, and its details must agree between the
// roles (arrival counts, phases, the order of the walk). Written once, they cannot drift apart between kernels, and a
// new rung (other tiles, another schedule, another epilogue) writes only the parts that differ.
//
// The barrier protocol: full[s] completes on the producer's one arrival (which announces the stage's bytes) and
// the copies' bytes; empty[s] on one arrival per consumer warp (Storage::release) once the MMAs that read stage s
// retired. Both roles walk the same units and K tiles in the same order, so their ring positions agree without
// communication; the producer waits on empty with the other parity, so its first pass finds every stage free.
//
// The parts' interfaces (Params is the kernel's own parameter struct, with the schedule as `schedule`):
//   Schedule:  static int units(const PersistentSchedule&); static TileUnit unit(const PersistentSchedule&, int u)
//   Producer:  static constexpr uint32_t kStageBytes (the bytes of one stage's copies);
//              static void prefetch(const Params&) (before the block barrier, by the thread that initialises it);
//              static void load(Tiles&, int stage, uint32_t full_barrier, const TileUnit&, int kt, const Params&)
//   Mainloop:  constructed once per consumer thread from its consumer warpgroup's index;
//              operator()(Storage&, RingPosition<stages>&, const TileUnit&): the unit's K tiles from the ring
//              position on, each waited for (Storage::wait_full) and given back (Storage::release);
//              result(): the accumulators the epilogue takes (of type Mainloop::Accumulators)
//   Epilogue:  static void store(const Mainloop::Accumulators&, const TileUnit&, int consumer_index, const Params&);
//              optionally static void finish_producer(): what every thread of the producer warpgroup does once the
//              copies are issued (an epilogue that synchronises its cluster has them take part in its barriers)
#pragma once

#include <cstdint>

#include "core/copy/bulk_tensor.cuh"
#include "core/copy/cp_async.cuh"
#include "core/mma/wgmma_tf32.cuh"
#include "core/schedule/persistent_tiles.cuh"

namespace gemm {

// The shape of a warp-specialised block: the ring's stages, the consumer warpgroups beside the producer warpgroup,
// and the registers per thread of each role.
struct WarpSpecialized {
    int stages;
    int consumers;
    int producer_registers, consumer_registers;

    __host__ __device__ constexpr int threads() const { return 128 * (1 + consumers); }
    __host__ __device__ constexpr bool fits_register_file() const {
        return 128 * (consumers * consumer_registers + producer_registers) <= 65536;
    }
};

// The block's shared memory: the kernel's ring of tiles (Tiles, each stage's tiles 1,024-byte aligned within it),
// then the ring's barriers.
template <class Tiles, int kStages>
struct WarpSpecializedStorage {
    Tiles tiles;
    uint64_t full[kStages];   // the stage's copies landed (the producer's arrival and the copies' bytes)
    uint64_t empty[kStages];  // the MMAs that read the stage retired (one arrival per consumer warp)

    // A consumer: blocks until the stage at r has landed.
    __device__ __forceinline__ void wait_full(const RingPosition<kStages>& r) {
        mbarrier_wait(smem_addr(&full[r.stage]), r.phase);
    }
    // A consumer warp gives a stage back, once every MMA that read it retired.
    __device__ __forceinline__ void release(int stage) {
        if (threadIdx.x % 32 == 0) mbarrier_arrive(smem_addr(&empty[stage]));
    }
};

// The dynamic shared memory a kernel asks for: the storage and the room to align it to a swizzle atom.
template <class Storage>
constexpr int kWarpSpecializedSmemBytes = kSwizzleAtomBytes + int(sizeof(Storage));

// The producer warpgroup's one working thread: every K tile of the block's units into the ring, in the order the
// consumers read them. Each stage is taken once the consumers gave it back, its bytes are announced on its full
// barrier, and the Producer's copies complete it.
template <WarpSpecialized kFrame, class Schedule, class Producer, class Storage, class Params>
__device__ __forceinline__ void produce(Storage& st, const Params& params) {
    const PersistentSchedule& s = params.schedule;
    RingPosition<kFrame.stages> r;
    for (int u = blockIdx.x; u < Schedule::units(s); u += gridDim.x) {
        const TileUnit w = Schedule::unit(s, u);
        for (int kt = w.kt0; kt < w.kt0 + w.ktiles; ++kt, r.advance()) {
            mbarrier_wait(smem_addr(&st.empty[r.stage]), r.phase ^ 1);
            const uint32_t full = smem_addr(&st.full[r.stage]);
            mbarrier_arrive_expect_tx(full, Producer::kStageBytes);
            Producer::load(st.tiles, r.stage, full, w, kt, params);
        }
    }
}

// A consumer warpgroup's thread: for each of the block's units, the Mainloop's MMAs, then the Epilogue's stores.
template <WarpSpecialized kFrame, class Schedule, class Mainloop, class Epilogue, class Storage, class Params>
__device__ __forceinline__ void consume(Storage& st, const Params& params, int consumer_index) {
    const PersistentSchedule& s = params.schedule;
    Mainloop mainloop(consumer_index);
    RingPosition<kFrame.stages> r;
    for (int u = blockIdx.x; u < Schedule::units(s); u += gridDim.x) {
        const TileUnit w = Schedule::unit(s, u);
        mainloop(st, r, w);
        Epilogue::store(mainloop.result(), w, consumer_index, params);
    }
}

// The body of a warp-specialised persistent kernel of shape kFrame (launched with kFrame.threads() threads, one block
// per SM, __launch_bounds__(kFrame.threads(), 1), and kWarpSpecializedSmemBytes of its storage) over params, the
// kernel's parameters (its tensor maps as pointers to its __grid_constant__ parameters).
template <WarpSpecialized kFrame, class Tiles, class Schedule, class Producer, class Mainloop, class Epilogue,
          class Params>
__device__ __forceinline__ void warp_specialized(const Params& params) {
    static_assert(kFrame.fits_register_file(), "the register budgets of the roles");
    using Storage = WarpSpecializedStorage<Tiles, kFrame.stages>;
    extern __shared__ uint8_t smem_raw[];
    Storage& st = *reinterpret_cast<Storage*>(swizzle_aligned(smem_raw));
    if (threadIdx.x == 0) {
        for (int i = 0; i < kFrame.stages; ++i) {
            mbarrier_init(smem_addr(&st.full[i]), 1);
            mbarrier_init(smem_addr(&st.empty[i]), 4 * kFrame.consumers);
        }
        mbarrier_init_fence();
        Producer::prefetch(params);
    }
    __syncthreads();
    if (threadIdx.x < 128) {  // the producer warpgroup: one thread issues every copy, the other warps have no work
        warpgroup_release_registers<kFrame.producer_registers>();
        if (threadIdx.x == 0) produce<kFrame, Schedule, Producer>(st, params);
        if constexpr (requires { Epilogue::finish_producer(); }) Epilogue::finish_producer();
    } else {
        warpgroup_claim_registers<kFrame.consumer_registers>();
        consume<kFrame, Schedule, Mainloop, Epilogue>(st, params, int(threadIdx.x) / 128 - 1);
    }
}

}  // namespace gemm
