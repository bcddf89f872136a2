// The bulk-tensor FFMA mainloop (device): copy/bulk_tensor_tile.cuh's two copies per K tile on
// pipeline/mbarrier_ring.cuh's ring, issued by one thread; copy/swizzled_transpose.cuh's transposition of each
// operand stored with K across its rows (A for op_a = MM_OP_N, B for op_b = MM_OP_T) into a K-major double buffer;
// mma/ffma_warp_tile.cuh's micro-kernel over those buffers and the other operands straight from the ring. The
// op combination (OpA, OpB: OpN or OpT) is a template argument, so each instantiation holds only its own parts.
//
// The transposition of tile j+1 overlaps the FMAs of tile j: its loads are issued before them, its stores in the
// middle of them. One block barrier per tile publishes the transposed tile and frees the ring slot that thread 0
// refills next: tile j's slot, or tile j+1's when both operands are transposed (then the transposition is the
// only reader of the ring, and it is done with tile j+1's slot before that barrier), so that combination keeps
// the same number of tiles in flight with one slot fewer. The k loop is unrolled by construction (static_for), since nvcc declined to unroll it here,
// either whole or in chunks of kTile.k_body() k steps where a long body stalls on instruction fetch.
#pragma once

#include <cuda.h>

#include <type_traits>

#include "core/config.h"
#include "core/device.h"
#include "core/copy/bulk_tensor_tile.cuh"
#include "core/copy/swizzled_transpose.cuh"
#include "core/mma/ffma_warp_tile.cuh"
#include "core/pipeline/mbarrier_ring.cuh"

namespace gemm {

template <FfmaTile kTile, class OpA = OpN, class OpB = OpN>
class FfmaBulkTensorMainloop {
  public:
    static constexpr int BM = kTile.block.m, BN = kTile.block.n, BK = kTile.block.k;
    static constexpr int kThreads = kTile.threads();
    static constexpr int kChunkK = kTile.k_body(), kChunks = BK / kChunkK;
    using Warp = FfmaWarpTileOf<kTile>;
    using Acc = typename Warp::Acc;
    using Copy = BulkTensorTileCopy<BM, BN, BK, OpA, OpB>;
    static constexpr bool kTransposeA = !OpA::kT, kTransposeB = OpB::kT;
    using TransposeA = SwizzledTranspose<BM, BK, kThreads>;
    using TransposeB = SwizzledTranspose<BN, BK, kThreads>;
    // Row strides, in floats, of the K-major tiles the warp tile reads: a transposition buffer or the ring slot.
    static constexpr int SA = kTransposeA ? TransposeA::S : BM, SB = kTransposeB ? TransposeB::S : BN;
    // Whether the k loop reads a ring slot itself (some operand is read in place), and the ring's slots.
    static constexpr bool kReadsRing = !(kTransposeA && kTransposeB);
    static constexpr int kStages = kReadsRing ? kTile.stages : kTile.stages - 1;

    // The shared-memory layout, in bytes from a 1 KB aligned base (the swizzled boxes need it): the A ring, the
    // B ring, the transposed A double buffer, the transposed B double buffer (each only where transposed), the
    // ring's barriers.
    static constexpr int kBOffset = kStages * Copy::kABytes;
    static constexpr int kATOffset = kBOffset + kStages * Copy::kBBytes;
    static constexpr int kBTOffset = kATOffset + (kTransposeA ? 2 * TransposeA::kFloats * 4 : 0);
    static constexpr int kBarrierOffset = kBTOffset + (kTransposeB ? 2 * TransposeB::kFloats * 4 : 0);
    static constexpr int kBytes = kBarrierOffset + kStages * 8;
    // Dynamic shared memory to ask for: the layout plus the slack for aligning it.
    static constexpr int kSmemBytes = kBytes + 1024;
    // What an epilogue may overlay once the last K tile has been read: the rings and the transposition buffers,
    // never the live barriers.
    static constexpr int kReusableBytes = kBarrierOffset;

    static constexpr bool valid() {
        return Warp::kWM == kTile.warp.m && Warp::kWN == kTile.warp.n && kTile.warp.m == 64 && BM % 64 == 0 &&
               BN % kTile.warp.n == 0 && kThreads <= 1024 && (!kTransposeA || TransposeA::valid()) &&
               (!kTransposeB || TransposeB::valid()) && kStages >= 2 && BK % kChunkK == 0 &&
               kChunkK % 2 == 0 && kChunkK >= 2 &&  // register double-buffering alternates buffers across k
               BM <= 256 && BN <= 256 && BK <= 256 &&  // bulk-copy box limits
               Copy::kABytes % 1024 == 0 && Copy::kBBytes % 1024 == 0;  // every slot keeps the swizzle's alignment
    }
    static_assert(valid(), "tile configuration violates the warp-tile / bulk-copy / transposition constraints");
    static_assert(fits_shared_memory(kSmemBytes, kTile.min_blocks_per_sm), "shared memory over the limits");

    // Carves the block's dynamic shared memory and initialises the ring; thread tid of the block (every thread
    // must construct it: it meets at a block barrier).
    __device__ __forceinline__ FfmaBulkTensorMainloop(uint8_t* smem_raw, const CUtensorMap* a_map,
                                                      const CUtensorMap* b_map, int tid)
        : copy_{a_map, b_map}, ring_(nullptr), tid_(tid) {
        // Rounded up to 1 KB by pointer arithmetic, so that accesses stay LDS/STS.
        uint8_t* const smem = smem_raw + ((1024 - (smem_addr(smem_raw) & 1023)) & 1023);
        a_ring_ = smem;
        b_ring_ = smem + kBOffset;
        at_ = reinterpret_cast<float*>(smem + kATOffset);
        bt_ = reinterpret_cast<float*>(smem + kBTOffset);
        ring_ = MbarrierRing<kStages>(reinterpret_cast<uint64_t*>(smem + kBarrierOffset));
        if (tid_ == 0) {
            prefetch_tensor_map(a_map);
            prefetch_tensor_map(b_map);
            ring_.init();
        }
        __syncthreads();
    }

    // acc = the product of the block tile at (m0, n0) over K tiles [kt_begin, kt_end) (kt_end > kt_begin).
    // Ends with a block barrier, after which the ring and the transposition buffer are free for the next call.
    __device__ __forceinline__ void accumulate(int m0, int n0, int kt_begin, int kt_end, Acc& acc) {
        const int count = kt_end - kt_begin, first = ring_.reserve(count);
        auto issue = [&](int j) {  // thread 0 only: tile j of this call is K tile kt_begin + j, ring tile first + j
            const int t = first + j;
            ring_.expect(t, Copy::kBytes);
            copy_.issue(ring_.full_barrier(t), a_ring_, b_ring_, MbarrierRing<kStages>::slot(t), kt_begin + j, m0, n0);
        };
        if (tid_ == 0) {
            if (first > 0) fence_proxy_async_shared();  // the previous call's reads of the ring
            for (int j = 0; j < kStages && j < count; ++j) issue(j);
        }

        std::conditional_t<kTransposeA, TransposeA, Untransposed> transpose_a;
        std::conditional_t<kTransposeB, TransposeB, Untransposed> transpose_b;
        auto transpose_load = [&](int j) {
            if constexpr (kTransposeA)
                transpose_a.load(a_ring_ + MbarrierRing<kStages>::slot(first + j) * Copy::kABytes, tid_);
            if constexpr (kTransposeB)
                transpose_b.load(b_ring_ + MbarrierRing<kStages>::slot(first + j) * Copy::kBBytes, tid_);
        };
        auto transpose_store = [&](int buffer) {
            if constexpr (kTransposeA) transpose_a.store(at_ + buffer * TransposeA::kFloats, tid_);
            if constexpr (kTransposeB) transpose_b.store(bt_ + buffer * TransposeB::kFloats, tid_);
        };
        // Tile j's slot is freed at the barrier after iteration j, or (kReadsRing false) after iteration j - 1,
        // this one for j = 0: the tile to refill it with is kRefill tiles after the one just freed.
        constexpr int kRefill = kReadsRing ? kStages : kStages + 1;
        ring_.wait(first);
        transpose_load(0);
        transpose_store(0);
        __syncthreads();
        if constexpr (!kReadsRing) {
            if (tid_ == 0 && kStages < count) {
                fence_proxy_async_shared();
                issue(kStages);
            }
        }

        const int lane = tid_ % 32, warp = tid_ / 32;
        warp_tile_origin<Warp>(warp, lane, kTile.warps_n(), row0_, col0_);  // the epilogue's too
        Warp::zero(acc);

        for (int j = 0; j < count; ++j) {
            const bool has_next = j + 1 < count;
            if constexpr (kTransposeA || kTransposeB) {
                if (has_next) {  // tile j+1 was issued an iteration or more ago
                    ring_.wait(first + j + 1);
                    transpose_load(j + 1);
                }
            } else {  // nothing to transpose: the k loop reads tile j itself
                ring_.wait(first + j);
            }
            const float* const a_k =
                (kTransposeA ? at_ + (j & 1) * TransposeA::kFloats
                             : reinterpret_cast<const float*>(a_ring_ + MbarrierRing<kStages>::slot(first + j) * Copy::kABytes)) +
                row0_;
            const float* const b_k =
                (kTransposeB ? bt_ + (j & 1) * TransposeB::kFloats
                             : reinterpret_cast<const float*>(b_ring_ + MbarrierRing<kStages>::slot(first + j) * Copy::kBBytes)) +
                col0_;
            float4 fa[2][Warp::FM], fb[2][Warp::FN];  // [register buffer][fragment]
            Warp::load(fa[0], fb[0], a_k, b_k);
#pragma unroll 1
            for (int chunk = 0; chunk < kChunks; ++chunk) {
                if (kChunks > 1 && chunk == kChunks / 2 && has_next) transpose_store((j + 1) & 1);
                const float* const a_c = a_k + chunk * kChunkK * SA;
                const float* const b_c = b_k + chunk * kChunkK * SB;
                // k offset of the next chunk's first row; the last chunk reloads row 0 (harmless, discarded).
                const int next = chunk + 1 < kChunks ? kChunkK : -chunk * kChunkK;
                static_for<0, kChunkK>([&](auto k_const) {
                    constexpr int k = decltype(k_const)::value;
                    constexpr int nb = (k + 1) & 1;  // fragment buffer of step k+1
                    if constexpr (k + 1 < kChunkK)
                        Warp::load(fa[nb], fb[nb], a_c + (k + 1) * SA, b_c + (k + 1) * SB);
                    else if constexpr (kChunks > 1)
                        Warp::load(fa[nb], fb[nb], a_c + next * SA, b_c + next * SB);
                    if constexpr (kChunks == 1 && k == BK / 2) {  // transpose_load's loads have long landed
                        if (has_next) transpose_store((j + 1) & 1);
                    }
                    Warp::fma(acc, fa[k & 1], fb[k & 1]);
                });
            }
            // Publishes the transposed tile j+1; every thread is done with the transposed tile j and with ring
            // tile first+j (a transposed part was transposed last iteration, a part read in place just now; with
            // both parts transposed, with ring tile first+j+1 too), so the slot can be refilled.
            __syncthreads();
            if (tid_ == 0 && j + kRefill < count) {
                fence_proxy_async_shared();
                issue(j + kRefill);
            }
        }
    }

    // This thread's origin in the block tile (valid after the first accumulate).
    __device__ int row0() const { return row0_; }
    __device__ int col0() const { return col0_; }

    // The region an epilogue may reuse (kReusableBytes) once accumulate() has returned.
    __device__ uint8_t* reusable() const { return a_ring_; }

  private:
    struct Untransposed {};  // the place of the transposition of an operand read in place

    const Copy copy_;
    MbarrierRing<kStages> ring_;
    uint8_t* a_ring_;
    uint8_t* b_ring_;
    float* at_;
    float* bt_;
    const int tid_;
    int row0_ = 0, col0_ = 0;
};

}  // namespace gemm
