// The skinny kernel's staged mainloop (device), for X with its rows along K and more than a few rows of Y, or a Y
// whose rows cannot be read 16 bytes at a time.
//
// The register mainloop for X along K lays its lanes along K, so every lane needs its own k of Y, S values of it
// per k, from the caches: past a few rows of Y those reads cost more than X's stream. Here a tile of X goes through
// shared memory instead, as stored (rows along K: 64 k, two 128-byte lines, per row of the tile), by cp.async on a
// 4-stage ring, and the lanes take rows of X: lane i reads X(l, k .. k + 3) for its rows l (one 16-byte shared load
// per row, conflict-free: rows are kStride = 68 floats apart, so 8 lanes cover the 32 banks) and Y(s, k .. k + 3)
// for every s, which every lane of the warp reads at once (a broadcast), from Y's own tile in the same stage. A lane
// holds kRowsPerLane x kRows sums. The 8 warps take the 4-k steps of a tile in turn, and add their sums in warp
// order at the end.
//
// One such block per SM streams X fastest (the plan sizes the grid so): two, or narrower tiles in more stages, hold
// the same bytes in flight and were slower (docs/experiments/2026-12-02-staged-skinny.md). With 32 rows of Y it was
// slower than the tiled configurations there, so the kernel takes up to 16.
//
// Parameters: tiles of 64 rows of X (2 per lane) by 64 k, 4 stages, 80 KB of shared memory at 16 rows of Y; Y's
// rows rounded up to 4, 8 or 16.
#pragma once

#include <cstdint>

#include "core/copy/cp_async.cuh"
#include "core/pipeline/cp_async_ring.cuh"
#include "kernels/skinny/view.cuh"

namespace skinny {

// The fewest rows of sums the staged mainloop holds (fewer rows of Y are padded with zeros).
constexpr int kMinStagedRows = 4;

// The staged mainloop's shape: kRows rows of Y (4, 8 or 16 where the plan runs it; 32 for probes) by kRowsPerLane
// rows of X per lane, tiles of kTileK k (a multiple of 32: the warps take 4-k steps in turn), kStages stages.
template <int kRows_, int kRowsPerLane_ = 2, int kTileK_ = 64, int kStages_ = 4>
struct StagedShape {
    static constexpr int kRows = kRows_, kRowsPerLane = kRowsPerLane_, kTileK = kTileK_, kStages = kStages_;
    static_assert(kRows == 4 || kRows == 8 || kRows == 16 || kRows == 32, "rows of Y: 4, 8, 16 or 32");
    static_assert(kRowsPerLane * kRows <= 64, "at most 64 sums per lane");
    static_assert(kTileK % (4 * kWarps) == 0 && kThreads % kTileK == 0, "4-k steps for every warp");
    static constexpr int kBlockRows = 32 * kRowsPerLane;
    static constexpr int kStride = kTileK + 4;  // floats between the rows of a tile in shared memory
    static constexpr int kXStage = kBlockRows * kStride, kYStage = kRows * kStride;  // floats
    static constexpr int kRingFloats = kStages * (kXStage + kYStage);
    static constexpr int kSumFloats = kRows * kBlockRows;
    static constexpr int kSmemBytes = 4 * (kRingFloats > kSumFloats ? kRingFloats : kSumFloats);
};

// The rows of X (along L) a block of the staged mainloop takes.
constexpr int kStagedBlockRows = StagedShape<kMinStagedRows>::kBlockRows;

// Copies X's rows l0 .. l0 + kBlockRows - 1, k0 .. k0 + kTileK - 1, into x_s[row][k] (zeros past L and past k_end).
// kXVector: lanes side by side along a row in 16-byte pieces (8 lanes per 128-byte line), else in 4-byte copies.
template <class Shape, bool kXVector>
__device__ __forceinline__ void copy_x_tile(uint32_t x_s, const SkinnyView& v, int64_t l0, int k0, int k_end) {
    const int tid = threadIdx.x;
    if constexpr (kXVector) {
        constexpr int kChunks = Shape::kTileK / 4, kRowStep = kThreads / kChunks;  // 16-byte pieces of a row
        const int c = tid % kChunks, k = k0 + 4 * c;
#pragma unroll
        for (int p = 0; p < Shape::kBlockRows / kRowStep; ++p) {
            const int row = tid / kChunks + p * kRowStep;
            const bool row_inside = l0 + row < v.L;
            const float* const src = v.X + (l0 + row) * v.ldx + k;
            const uint32_t dst = x_s + 4 * (row * Shape::kStride + 4 * c);
            if (row_inside && k + 3 < k_end) {
                gemm::cp_async16(dst, src);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const bool ok = row_inside && k + j < k_end;
                    gemm::cp_async4_zfill(dst + 4 * j, ok ? src + j : v.X, ok);
                }
            }
        }
    } else {
        constexpr int kRowStep = kThreads / Shape::kTileK;
        const int k = tid % Shape::kTileK;
#pragma unroll
        for (int p = 0; p < Shape::kBlockRows / kRowStep; ++p) {
            const int row = tid / Shape::kTileK + p * kRowStep;
            const bool ok = l0 + row < v.L && k0 + k < k_end;
            gemm::cp_async4_zfill(x_s + 4 * (row * Shape::kStride + k), ok ? v.X + (l0 + row) * v.ldx + k0 + k : v.X,
                                  ok);
        }
    }
}

// Copies Y(s0 + s, k0 + k) for s < kRows, k < kTileK into y_s[s][k] (zeros past S and past k_end), lanes along Y's
// stored rows.
template <class Shape, YRows kY>
__device__ __forceinline__ void copy_y_tile(uint32_t y_s, const SkinnyView& v, int s0, int k0, int k_end) {
    constexpr int kRows = Shape::kRows;
    constexpr int kElements = kRows * Shape::kTileK;
#pragma unroll
    for (int pass = 0; pass < (kElements + kThreads - 1) / kThreads; ++pass) {
        const int e = int(threadIdx.x) + pass * kThreads;
        if (kElements % kThreads != 0 && e >= kElements) break;
        const int s = kY == YRows::kAlongK ? e / Shape::kTileK : e % kRows;
        const int k = kY == YRows::kAlongK ? e % Shape::kTileK : e / kRows;
        const bool ok = s0 + s < v.S && k0 + k < k_end;
        const float* const src = kY == YRows::kAlongK ? v.Y + int64_t(s0 + s) * v.ldy + (k0 + k)
                                                      : v.Y + int64_t(k0 + k) * v.ldy + (s0 + s);
        gemm::cp_async4_zfill(y_s + 4 * (s * Shape::kStride + k), ok ? src : v.Y, ok);
    }
}

// X along K through shared memory. Shape: a StagedShape (its kRows: rows of Y held, S rounded up); kXVector: X's
// stored rows may be read 16 bytes at a time.
template <class Shape, YRows kY, bool kXVector>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) skinny_staged_along_k(const SkinnyView v) {
    constexpr int kRows = Shape::kRows;
    constexpr int kRowsPerLane = Shape::kRowsPerLane, kBlockRows = Shape::kBlockRows, kStride = Shape::kStride;
    extern __shared__ __align__(16) float smem[];
    float* const x_ring = smem;  // [stage][row][k]
    float* const y_ring = smem + Shape::kStages * Shape::kXStage;  // [stage][s][k]
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t l0 = column_block(v) * kBlockRows;
    const int s0 = s_group(v) * kRows;
    int k_begin = 0, k_end = 0;
    slice_range(v, &k_begin, &k_end);
    const int tiles = k_end > k_begin ? (k_end - k_begin - 1) / Shape::kTileK + 1 : 0;

    const uint32_t x_base = gemm::smem_addr(x_ring), y_base = gemm::smem_addr(y_ring);
    const auto load = [&](int tile, int stage) {
        const int k0 = k_begin + tile * Shape::kTileK;
        copy_x_tile<Shape, kXVector>(x_base + 4 * stage * Shape::kXStage, v, l0, k0, k_end);
        copy_y_tile<Shape, kY>(y_base + 4 * stage * Shape::kYStage, v, s0, k0, k_end);
    };
    gemm::CpAsyncRing<Shape::kStages> ring(0, tiles);
    ring.fill(load);

    float acc[kRowsPerLane][kRows] = {};
    for (int tile = 0; tile < tiles; ++tile) {
        ring.refill(load);
        const float* const x_s = x_ring + ring.read_stage() * Shape::kXStage + lane * kStride + 4 * warp;
        const float* const y_s = y_ring + ring.read_stage() * Shape::kYStage + 4 * warp;
#pragma unroll
        for (int step = 0; step < Shape::kTileK / (4 * kWarps); ++step) {
            const int k = step * 4 * kWarps;
            float4 x[kRowsPerLane];
#pragma unroll
            for (int t = 0; t < kRowsPerLane; ++t) x[t] = *reinterpret_cast<const float4*>(x_s + 32 * t * kStride + k);
#pragma unroll
            for (int s = 0; s < kRows; ++s) {
                const float4 y = *reinterpret_cast<const float4*>(y_s + s * kStride + k);
#pragma unroll
                for (int t = 0; t < kRowsPerLane; ++t) {
                    float sum = acc[t][s];
                    sum = fmaf(x[t].x, y.x, sum);
                    sum = fmaf(x[t].y, y.y, sum);
                    sum = fmaf(x[t].z, y.z, sum);
                    acc[t][s] = fmaf(x[t].w, y.w, sum);
                }
            }
        }
        ring.advance();
    }

    // The warps' sums over their k, added in warp order in shared memory (the ring's, now idle): sums[s][row].
    gemm::cp_async_wait<0>();
    __syncthreads();
    float* const sums = smem;
    for (int w = 0; w < kWarps; ++w) {
        if (warp == w)
#pragma unroll
            for (int t = 0; t < kRowsPerLane; ++t)
#pragma unroll
                for (int s = 0; s < kRows; ++s) {
                    float& sum = sums[s * kBlockRows + lane + 32 * t];
                    sum = (w == 0 ? 0.f : sum) + acc[t][s];
                }
        __syncthreads();
    }
    write_sums<kRows>(v, sums, kRows * kBlockRows, [&](int o, int* s, int64_t* at_l) {
        *s = o / kBlockRows;
        *at_l = l0 + o % kBlockRows;
    });
}

}  // namespace skinny
