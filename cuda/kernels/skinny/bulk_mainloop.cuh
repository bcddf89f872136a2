// The skinny kernel's bulk mainloop (device, sm_90): X through shared memory by bulk tensor copies, for either way
// X is stored.
//
// The register mainloops hold X's bytes in flight in registers, so the more rows of Y a lane sums, the fewer bytes
// it can wait for, and past a few rows they cannot keep HBM busy. Here the copy engine brings tiles of X into a ring
// of kStages shared-memory slots, one bulk tensor copy per tile, so the bytes in flight cost no registers: the
// registers hold only the sums. Each tile's slice of Y comes with it by cp.async (4 bytes each, so any Y, aligned
// or not), and the tile's mbarrier completes when both have landed: the copy engine counts X's bytes, and every
// thread's cp.async arrive on it (noinc) when its copies finish. The 8 warps read the same slot and take different
// k of it; one block barrier per tile frees the slot, and thread 0 then issues the tile kStages ahead. The copy engine
// zero-fills what lies past L and past K; slices of K are whole tiles, so no tile crosses into another slice.
//
// Lanes lie along L in both layouts, so that every lane of a warp reads the same Y (a broadcast), and warp w takes
// the tile's 4-k chunk w:
// - X along L (a tile is kTileK rows of X, each kTileL floats of a row along L, unswizzled): lane i reads the 4 l at
//   4i of the warp's 4 rows, four 16-byte shared loads, and holds kRows x 4 sums.
// - X along K (a tile is kTileL rows of X, each kTileK floats along K: 128 bytes, with the copy engine's 128-byte
//   swizzle, which puts the 8 lanes of a shared-memory phase on 8 different bank quads): lane i reads the warp's
//   chunk of rows i, i + 32, i + 64, i + 96, and holds 4 x kRows sums.
// Y lands as y[s][k] (one 16-byte load gives a row of Y at the warp's 4 k), except with X along L and Y along S,
// where it lands as y[k][s] (one load gives 4 rows of Y at one k): so its copy runs along Y's stored rows (whole
// sectors), except with X along K and Y along S, where the loop reading y[k][s] measured slower than the copy
// across Y's rows costs (docs/experiments/2026-12-02-bulk-y.md).
// The warps add their sums in warp order at the end, in the ring's memory.
//
// The order of the sums: a lane's sum of one output takes 4 k of every tile, and every kFoldTiles tiles it is added
// into a running total and starts again from zero. So it is made of chains of 4 kFoldTiles products and of one
// chain of the slice's tiles / kFoldTiles partial sums, instead of one chain of 4 products per tile over the whole
// slice: the rounding error of a sum grows with the length of its chains, and a slice is all of K where the large
// side fills the GPU. The additions are few; the totals take kRows x 4 registers more per thread, which from 12 rows
// of Y leave room for one block per SM instead of two, and so cost some of the bandwidth that two blocks reach.
//
// Parameters: tiles of 32 k by 128 l (16 KB of X), kStages slots, kRows rows of Y (a multiple of 4, at most 32),
// 256 threads, a fold every kFoldTiles = 4 tiles.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "core/copy/bulk_tensor.cuh"
#include "core/copy/cp_async.cuh"
#include "kernels/skinny/view.cuh"

namespace skinny {

template <XRows kX_, int kRows_, int kStages_, int kMinBlocksPerSm_ = 1>
struct BulkShape {
    static constexpr XRows kX = kX_;
    static constexpr int kRows = kRows_, kStages = kStages_, kMinBlocks = kMinBlocksPerSm_;
    static constexpr int kTileK = 32, kTileL = 128;
    static constexpr int kFoldTiles = 4;  // tiles summed apart before they join the running total
    static_assert(kRows % 4 == 0 && kRows <= 32, "rows of Y: a multiple of 4, at most 32");
    static_assert(kTileK == 4 * kWarps && kTileL == 4 * 32, "a 4-k chunk per warp (X along K), 4 l per lane");
    static constexpr int kXBytes = kTileK * kTileL * 4;  // a multiple of the swizzle atom
    static constexpr int kYFloats = kRows * kTileK;
    static constexpr int kYOffset = kStages * kXBytes;
    static constexpr int kBarrierOffset = kYOffset + kStages * kYFloats * 4;
    static constexpr int kSmemBytes = kBarrierOffset + kStages * 8 + gemm::kSwizzleAtomBytes;  // + alignment slack
    static constexpr int kOutputs = kRows * kTileL;  // the block's sums, overlaid on the ring at the end
    static_assert(kOutputs * 4 <= kBarrierOffset, "the sums fit in the ring");
};

// Whether the slot holds Y as y[k][s] (kRows floats per k) rather than y[s][k] (kTileK floats per row s).
template <class Shape, YRows kY>
constexpr bool kYByK = Shape::kX == XRows::kAlongL && kY == YRows::kAlongS;

// A thread's share of every tile's copy of Y: Y(s0 + s, k0 + k) for s < kRows, k < kTileK into the slot (zeros past
// S and past k_end), 4 bytes at a time, consecutive threads to consecutive words of the slot (no bank conflicts).
// Where the slot's order runs across Y's stored rows (X along K, Y along S), the other words of each 32-byte sector
// come from L1 for the neighbouring k (cp.async of 4 bytes caches in L1). Each of the thread's elements keeps its
// address at the slice's first tile and how much of the slice it lies inside, so that a tile's copy costs an
// offset, a comparison and the copy per element. Per element, not one address and a step as the staged mainloop's
// copies keep: 12, 20 or 24 rows do not divide the block's threads, so a thread's elements lie at no fixed step.
template <class Shape, YRows kY>
class BulkYCopy {
    static constexpr int kRows = Shape::kRows, kTileK = Shape::kTileK, kElements = kRows * kTileK;
    static constexpr int kPasses = (kElements + kThreads - 1) / kThreads;

  public:
    __device__ __forceinline__ BulkYCopy(const SkinnyView& v, int s0, int k_begin, int k_end)
        : tile_step_(kY == YRows::kAlongK ? kTileK : int64_t(kTileK) * v.ldy) {
#pragma unroll
        for (int pass = 0; pass < kPasses; ++pass) {
            const int e = int(threadIdx.x) + pass * kThreads;
            const int s = kYByK<Shape, kY> ? e % kRows : e / kTileK;
            const int k = kYByK<Shape, kY> ? e / kRows : e % kTileK;
            // Inside while t * kTileK < k_left (never past S or past the slice: 0); -1 marks the part of a last pass
            // past kElements, which copies nothing.
            const int k_inside = k_end - k_begin - k;
            k_left_[pass] = e >= kElements ? -1 : s0 + s < v.S && k_inside > 0 ? k_inside : 0;
            // An element never inside keeps Y's own address (a zero fill reads nothing, but its address is valid).
            src_[pass] = k_left_[pass] <= 0           ? v.Y
                         : kY == YRows::kAlongK ? v.Y + int64_t(s0 + s) * v.ldy + (k_begin + k)
                                                : v.Y + int64_t(k_begin + k) * v.ldy + (s0 + s);
        }
    }

    // Tile t of the slice into the slot y_s.
    __device__ __forceinline__ void issue(uint32_t y_s, int t) const {
        const int64_t offset = int64_t(t) * tile_step_;
        const int k_at = t * kTileK;
#pragma unroll
        for (int pass = 0; pass < kPasses; ++pass) {
            if (kElements % kThreads != 0 && pass == kPasses - 1 && k_left_[pass] < 0) break;  // past kElements
            const bool ok = k_at < k_left_[pass];
            gemm::cp_async4_zfill(y_s + 4 * (int(threadIdx.x) + pass * kThreads), src_[pass] + (ok ? offset : 0), ok);
        }
    }

  private:
    int64_t tile_step_;  // floats from one tile's Y to the next's
    const float* src_[kPasses];
    int k_left_[kPasses];
};

// The block's sums over the tiles of X (x_tile) and their slices of Y (y_tile): total[i][j] + acc[i][j], for X
// along L the sums of C(s0 + i, l0 + 4 lane + j), for X along K of C(s0 + j, l0 + lane + 32 i); acc holds the tiles
// since the last fold.
template <class Shape, YRows kY>
struct BulkSums {
    static constexpr bool kAlongL = Shape::kX == XRows::kAlongL;
    static constexpr int kI = kAlongL ? Shape::kRows : 4, kJ = kAlongL ? 4 : Shape::kRows;
    float acc[kI][kJ] = {};
    float total[kI][kJ] = {};

    // acc into the running total, and acc from zero again.
    __device__ __forceinline__ void fold() {
#pragma unroll
        for (int i = 0; i < kI; ++i)
#pragma unroll
            for (int j = 0; j < kJ; ++j) {
                total[i][j] += acc[i][j];
                acc[i][j] = 0.f;
            }
    }

    // Warp w takes the tile's 4-k chunk w: k = 4w + c, c < 4.
    __device__ __forceinline__ void add_tile(const uint8_t* x_tile, const float* y_tile, int lane, int warp) {
        constexpr int kTileL = Shape::kTileL;
        float4 x[4];
        if constexpr (kAlongL) {
            const float* const x_rows = reinterpret_cast<const float*>(x_tile) + 4 * warp * kTileL + 4 * lane;
#pragma unroll
            for (int c = 0; c < 4; ++c) x[c] = *reinterpret_cast<const float4*>(x_rows + c * kTileL);
        } else {
            // Row r's 16-byte chunk c sits at chunk c ^ (r % 8) of its 128 bytes (the copy engine's swizzle).
#pragma unroll
            for (int i = 0; i < 4; ++i)
                x[i] = *reinterpret_cast<const float4*>(x_tile + (lane + 32 * i) * 128 + ((warp ^ (lane & 7)) << 4));
        }
        if constexpr (kYByK<Shape, kY>)
            add_y_by_k(x, y_tile + 4 * warp * Shape::kRows);
        else
            add_y_by_s(x, y_tile + 4 * warp);
    }

    // sums[s * kTileL + l] (+)= this lane's sums of row s, column l of the block (after the last fold).
    __device__ __forceinline__ void add_to(float* sums, int lane, bool first) const {
        constexpr int kTileL = Shape::kTileL;
        if constexpr (kAlongL) {
#pragma unroll
            for (int s = 0; s < Shape::kRows; ++s)
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    float& sum = sums[s * kTileL + 4 * lane + j];
                    sum = (first ? 0.f : sum) + total[s][j];
                }
        } else {
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int s = 0; s < Shape::kRows; ++s) {
                    float& sum = sums[s * kTileL + lane + 32 * i];
                    sum = (first ? 0.f : sum) + total[i][s];
                }
        }
    }

  private:
    // X(k, l) for the warp's k = c (c < 4) and the lane's l = j or i: x[c].j along L, x[i].c along K.
    __device__ __forceinline__ static float x_at(const float4 (&x)[4], int c, int li) {
        const float4& v = kAlongL ? x[c] : x[li];
        const int j = kAlongL ? li : c;
        return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w;
    }

    __device__ __forceinline__ void add_y(const float4 (&x)[4], int c, int s, float y) {
#pragma unroll
        for (int li = 0; li < 4; ++li) {
            float& sum = kAlongL ? acc[s][li] : acc[li][s];
            sum = fmaf(x_at(x, c, li), y, sum);
        }
    }

    // The slot holds y[s][k]: Y(s, the warp's 4 k) is one 16-byte load.
    __device__ __forceinline__ void add_y_by_s(const float4 (&x)[4], const float* y_warp) {
#pragma unroll
        for (int s = 0; s < Shape::kRows; ++s) {
            const float4 y = *reinterpret_cast<const float4*>(y_warp + s * Shape::kTileK);
            add_y(x, 0, s, y.x);
            add_y(x, 1, s, y.y);
            add_y(x, 2, s, y.z);
            add_y(x, 3, s, y.w);
        }
    }

    // The slot holds y[k][s]: Y(4q .. 4q + 3, k) is one 16-byte load.
    __device__ __forceinline__ void add_y_by_k(const float4 (&x)[4], const float* y_warp) {
#pragma unroll
        for (int c = 0; c < 4; ++c)
#pragma unroll
            for (int q = 0; q < Shape::kRows / 4; ++q) {
                const float4 y = *reinterpret_cast<const float4*>(y_warp + c * Shape::kRows + 4 * q);
                add_y(x, c, 4 * q + 0, y.x);
                add_y(x, c, 4 * q + 1, y.y);
                add_y(x, c, 4 * q + 2, y.z);
                add_y(x, c, 4 * q + 3, y.w);
            }
    }
};

// X (described by x_map as stored: rows along L in boxes of kTileK x kTileL, or along K in boxes of kTileL x kTileK
// with the 128-byte swizzle) through the ring. v.k_per_slice must be a multiple of kTileK.
template <class Shape, YRows kY>
__global__ void __launch_bounds__(kThreads, Shape::kMinBlocks)
    skinny_bulk(const __grid_constant__ CUtensorMap x_map, const SkinnyView v) {
    constexpr int kStages = Shape::kStages, kTileK = Shape::kTileK;
    extern __shared__ __align__(16) uint8_t smem_raw[];
    uint8_t* const smem = gemm::swizzle_aligned(smem_raw);
    float* const y_ring = reinterpret_cast<float*>(smem + Shape::kYOffset);
    uint64_t* const full = reinterpret_cast<uint64_t*>(smem + Shape::kBarrierOffset);
    const int tid = int(threadIdx.x), lane = tid % 32, warp = tid / 32;
    const int l0 = int(column_block(v) * Shape::kTileL);
    const int s0 = s_group(v) * Shape::kRows;
    int k_begin = 0, k_end = 0;
    slice_range(v, &k_begin, &k_end);
    const int tiles = k_end > k_begin ? (k_end - k_begin - 1) / kTileK + 1 : 0;
    if (tid == 0) {
        gemm::prefetch_tensor_map(&x_map);
        for (int s = 0; s < kStages; ++s) gemm::mbarrier_init(gemm::smem_addr(&full[s]), 1 + kThreads);
        gemm::mbarrier_init_fence();
    }
    __syncthreads();

    // Every thread: tile t into its slot, t % kStages (thread 0 issues X's copy, every thread its part of Y's).
    const BulkYCopy<Shape, kY> y_copy(v, s0, k_begin, k_end);
    const auto load = [&](int t, int slot) {
        const int k0 = k_begin + t * kTileK;
        const uint32_t bar = gemm::smem_addr(&full[slot]);
        if (tid == 0) {
            gemm::mbarrier_arrive_expect_tx(bar, Shape::kXBytes);
            const uint32_t dst = gemm::smem_addr(smem + slot * Shape::kXBytes);
            if constexpr (Shape::kX == XRows::kAlongL)
                gemm::bulk_tensor_load_2d(dst, &x_map, bar, l0, k0);
            else
                gemm::bulk_tensor_load_2d(dst, &x_map, bar, k0, l0);
        }
        y_copy.issue(gemm::smem_addr(y_ring + slot * Shape::kYFloats), t);
        gemm::cp_async_mbarrier_arrive_noinc(bar);
    };
    for (int t = 0; t < kStages && t < tiles; ++t) load(t, t);

    // The slot of tile t and the parity of its round through the ring, counted along (kStages is no power of two).
    int slot = 0;
    uint32_t parity = 0;
    BulkSums<Shape, kY> sums;
    for (int t = 0; t < tiles; ++t) {
        gemm::mbarrier_wait(gemm::smem_addr(&full[slot]), parity);
        sums.add_tile(smem + slot * Shape::kXBytes, y_ring + slot * Shape::kYFloats, lane, warp);
        if ((t + 1) % Shape::kFoldTiles == 0) sums.fold();
        if (t + kStages < tiles) {
            __syncthreads();  // every warp is done with the slot
            if (tid == 0) gemm::fence_proxy_async_shared();
            load(t + kStages, slot);  // the same slot, a round later
        }
        if (++slot == kStages) {
            slot = 0;
            parity ^= 1;
        }
    }

    // The warps' sums, added in warp order in the ring's memory: block_sums[s][l].
    sums.fold();
    __syncthreads();
    float* const block_sums = reinterpret_cast<float*>(smem);
    for (int w = 0; w < kWarps; ++w) {
        if (warp == w) sums.add_to(block_sums, lane, w == 0);
        __syncthreads();
    }
    write_sums<Shape::kRows>(v, block_sums, Shape::kOutputs, [&](int o, int* s, int64_t* at_l) {
        *s = o / Shape::kTileL;
        *at_l = l0 + o % Shape::kTileL;
    });
}

}  // namespace skinny
