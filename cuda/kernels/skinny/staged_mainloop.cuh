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

// A thread's share of every tile's copies: X's rows l0 .. l0 + kBlockRows - 1 into x_s[row][k] and Y(s0 + s, k) for
// s < kRows into y_s[s][k], k0 .. k0 + kTileK - 1 (k0 = k_begin + t kTileK for tile t), zeros past L, past S and past
// k_end. X: kXVector, lanes side by side along a row in 16-byte pieces (8 lanes per 128-byte line), else in 4-byte
// copies; Y in 4-byte copies along its stored rows. The thread's elements in every pass of a tile lie at the same k
// and at rows (of X) or s (of Y) a fixed step apart, so the thread keeps its first element's address at the slice's
// first tile, the step between passes and how far into the slice its k lies: a tile's copy costs an offset, a
// comparison and the copy per element.
template <class Shape, YRows kY, bool kXVector>
class StagedCopies {
    static constexpr int kTileK = Shape::kTileK, kRows = Shape::kRows, kStride = Shape::kStride;
    // X: per pass kXRowStep rows, a thread's piece kXWidth floats at k = kXWidth (tid % kXPieces).
    static constexpr int kXWidth = kXVector ? 4 : 1, kXPieces = kTileK / kXWidth;
    static constexpr int kXRowStep = kThreads / kXPieces, kXPasses = Shape::kBlockRows / kXRowStep;
    // Y: consecutive threads along Y's stored rows: s fastest (Y along S) or k fastest; passes a fixed step apart.
    static constexpr bool kYSFastest = kY == YRows::kAlongS;
    static constexpr int kYElements = kRows * kTileK;
    static constexpr int kYPasses = (kYElements + kThreads - 1) / kThreads;
    static_assert(kThreads % kXPieces == 0 && Shape::kBlockRows % kXRowStep == 0, "whole rows of X per pass");
    static_assert(kThreads % (kYSFastest ? kRows : kTileK) == 0 || kYPasses == 1, "Y's passes a fixed step apart");
    static constexpr int kYPassS = kYSFastest ? 0 : kThreads / kTileK;  // s from one pass to the next
    static constexpr int kYPassK = kYSFastest ? kThreads / kRows : 0;   // k from one pass to the next

  public:
    __device__ __forceinline__ StagedCopies(const SkinnyView& v, int64_t l0, int s0, int k_begin, int k_end)
        : ldx_(v.ldx), ldy_(v.ldy), fill_(v.X) {
        const int tid = int(threadIdx.x), length = k_end - k_begin;
        const int x_row = tid / kXPieces, x_k = kXWidth * (tid % kXPieces);
        x_rows_left_ = int(v.L - l0 > kBlockRowsBound ? kBlockRowsBound : v.L - l0) - x_row;
        x_k_left_ = length - x_k;
        x_ = v.X + (l0 + x_row) * v.ldx + k_begin + x_k;
        x_dst_ = 4 * (x_row * kStride + x_k);
        const int s = kYSFastest ? tid % kRows : tid / kTileK, k = kYSFastest ? tid / kRows : tid % kTileK;
        y_s_left_ = v.S - s0 - s;
        y_k_left_ = length - k;
        y_ = kY == YRows::kAlongK ? v.Y + int64_t(s0 + s) * v.ldy + (k_begin + k)
                                  : v.Y + int64_t(k_begin + k) * v.ldy + (s0 + s);
        y_dst_ = 4 * (s * kStride + k);
    }

    // Tile t into x_s and y_s.
    __device__ __forceinline__ void issue(uint32_t x_s, uint32_t y_s, int t) const {
        const int k_at = t * kTileK;
#pragma unroll
        for (int p = 0; p < kXPasses; ++p) {
            const float* const src = x_ + k_at + int64_t(p * kXRowStep) * ldx_;
            const uint32_t dst = x_s + x_dst_ + 4 * p * kXRowStep * kStride;
            const bool row_inside = p * kXRowStep < x_rows_left_;
            if (kXVector && row_inside && k_at + 3 < x_k_left_) {
                gemm::cp_async16(dst, src);
            } else {
#pragma unroll
                for (int j = 0; j < kXWidth; ++j) {
                    const bool ok = row_inside && k_at + j < x_k_left_;
                    gemm::cp_async4_zfill(dst + 4 * j, ok ? src + j : fill_, ok);
                }
            }
        }
        const int64_t y_at = kY == YRows::kAlongK ? k_at : int64_t(k_at) * ldy_;
#pragma unroll
        for (int p = 0; p < kYPasses; ++p) {
            if (kYElements % kThreads != 0 && int(threadIdx.x) + p * kThreads >= kYElements) break;
            const int ds = p * kYPassS, dk = p * kYPassK;
            const bool ok = ds < y_s_left_ && k_at + dk < y_k_left_;
            const int64_t pass_at = kY == YRows::kAlongK ? int64_t(ds) * ldy_ + dk : int64_t(dk) * ldy_ + ds;
            gemm::cp_async4_zfill(y_s + y_dst_ + 4 * (ds * kStride + dk), ok ? y_ + y_at + pass_at : fill_, ok);
        }
    }

  private:
    static constexpr int64_t kBlockRowsBound = Shape::kBlockRows;
    int64_t ldx_, ldy_;
    const float* fill_;  // a valid address for the zero fills, which read nothing
    const float* x_;  // X(l0 + the thread's first row, k_begin + its k)
    int x_rows_left_, x_k_left_;  // the thread's rows of X inside L: p * kXRowStep < x_rows_left_; its k inside
    uint32_t x_dst_;
    const float* y_;  // Y(s0 + the thread's first s, k_begin + its first k)
    int y_s_left_, y_k_left_;
    uint32_t y_dst_;
};

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
    const StagedCopies<Shape, kY, kXVector> copies(v, l0, s0, k_begin, k_end);
    const auto load = [&](int tile, int stage) {
        copies.issue(x_base + 4 * stage * Shape::kXStage, y_base + 4 * stage * Shape::kYStage, tile);
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
