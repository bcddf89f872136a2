// The FFMA warp tile: the register micro-kernel of every warp-tiled rung (device).
//
// Shared-memory layout it reads: both operands K-major (a_s[k][m], b_s[k][n]; for row-major operands A
// transposed and B as is), so that for a fixed k both operands are contiguous rows and every fragment read is one
// LDS.128.
//
// A warp owns a WM x WN sub-tile of the block tile; its 32 lanes form an 8 x 4 grid (kLanesM x kLanesN). A
// thread holds FM x FN fragments of 4x4 accumulators (FM = WM / 32, FN = WN / 16): its rows are
// f*(4*kLanesM) + 4*lm + {0..3} (f < FM) and its columns g*(4*kLanesN) + 4*ln + {0..3} (g < FN), i.e. its
// 4-wide pieces are strided across the warp tile instead of contiguous. For one k, the warp's A reads then
// cover 32 consecutive floats per fragment (8 distinct float4, the other lanes broadcast) and likewise for B,
// so no read ever has a bank conflict (lane_m and lane_n say how the lanes are placed, and how many wavefronts a read
// takes); and the C stores of a row are 4 contiguous float4 (whole 32-byte sectors).
//
// Per k a thread issues FM + FN LDS.128 for 16*FM*FN FMAs (8x8: 4 loads / 64 FMA; 8x16: 6 / 128).
//
// The accumulator layout (row_offset, col_offset) is what the epilogues read: accumulator acc[r][c] belongs at
// row row0 + row_offset(r), column col0 + col_offset(c) of the block tile, where (row0, col0) = origin(warp, lane).
#pragma once

#include "core/config.h"
#include "core/unroll.cuh"

namespace gemm {

template <int WM, int WN, FmaOrder kOrder>
struct FfmaWarpTile {
    static constexpr int kLanesM = 8, kLanesN = 4;
    static constexpr int FM = WM / (4 * kLanesM), FN = WN / (4 * kLanesN);
    static_assert(FM >= 1 && FN >= 1 && FM * 4 * kLanesM == WM && FN * 4 * kLanesN == WN,
                  "the warp tile must be a whole number of 32-row and 16-column fragment rows");
    static constexpr int kTM = 4 * FM;  // rows per thread
    static constexpr int kTN = 4 * FN;  // columns per thread
    static constexpr int kWM = WM, kWN = WN;
    using Acc = float[kTM][kTN];

    // Lane -> position in the lane grid. Nsight Compute counts a 16-byte shared read as one wavefront per half-warp
    // whose two quarter-warps (lanes 8q..8q+7) touch disjoint banks, two where they touch the same ones (the rule that
    // fits the three placements measured, not a documented one). In row order (ln the low two lane bits, so a row's C
    // stores are contiguous) every quarter-warp reads all 4 ln, and each B fragment read takes 4 wavefronts against
    // A's 2. In quarter pairs (lm = lane bits 3..1, ln = bit 3 xor bit 4 and bit 0) each quarter reads 4 lm and 2 ln,
    // the other quarter of its half the other 4 lm and 2 ln, so every read takes 2; the 4 lanes of one lm still hold
    // all 4 ln, so a row's C stores stay 64 contiguous bytes. Quarter pairs where a thread holds up to 64
    // accumulators, where they measure faster or alike; row order for 8 x 16 per thread, whose reads are few against
    // its FMAs and where quarter pairs measure slower (docs/experiments/2026-12-04-small-tiles.md).
    static constexpr bool kQuarterPairs = FM * FN <= 4;
    __device__ static int lane_m(int lane) { return kQuarterPairs ? (lane >> 1) & 7 : lane / kLanesN; }
    __device__ static int lane_n(int lane) {
        return kQuarterPairs ? (((lane >> 3) ^ (lane >> 4)) & 1) << 1 | (lane & 1) : lane % kLanesN;
    }

    // Where acc[r][c] belongs, relative to the thread's origin.
    __host__ __device__ static constexpr int row_offset(int r) { return r / 4 * (4 * kLanesM) + r % 4; }
    __host__ __device__ static constexpr int col_offset(int c) { return c / 4 * (4 * kLanesN) + c % 4; }

    __device__ static void zero(Acc& acc) {
#pragma unroll
        for (int i = 0; i < kTM; ++i)
#pragma unroll
            for (int j = 0; j < kTN; ++j) acc[i][j] = 0.f;
    }

    // One k-row of both operands. a_k/b_k point at element (k, this thread's first row/column) of a_s/b_s
    // and must be 16-byte aligned.
    __device__ static void load(float4 (&a)[FM], float4 (&b)[FN], const float* a_k, const float* b_k) {
#pragma unroll
        for (int f = 0; f < FM; ++f) a[f] = *reinterpret_cast<const float4*>(a_k + f * 4 * kLanesM);
#pragma unroll
        for (int g = 0; g < FN; ++g) b[g] = *reinterpret_cast<const float4*>(b_k + g * 4 * kLanesN);
    }

    // One k's outer product. kRows: row by row, each row left to right. kSerpentine: odd rows right to left,
    // so that a row's first FMA takes the B operand the previous row ended with. kBlocks2x4: blocks of 2 rows x
    // 4 columns, the blocks row by row and each block a serpentine of its two rows.
    __device__ static void fma(Acc& acc, const float4 (&a)[FM], const float4 (&b)[FN]) {
        if constexpr (kOrder == FmaOrder::kRows) {
#pragma unroll
            for (int f = 0; f < FM; ++f)
#pragma unroll
                for (int i = 0; i < 4; ++i)
#pragma unroll
                    for (int g = 0; g < FN; ++g)
#pragma unroll
                        for (int j = 0; j < 4; ++j)
                            acc[4 * f + i][4 * g + j] =
                                fmaf(f4_get(a[f], i), f4_get(b[g], j), acc[4 * f + i][4 * g + j]);
        } else if constexpr (kOrder == FmaOrder::kSerpentine) {
#pragma unroll
            for (int r = 0; r < kTM; ++r)
#pragma unroll
                for (int step = 0; step < kTN; ++step) {
                    const int col = r % 2 ? kTN - 1 - step : step;
                    acc[r][col] = fmaf(f4_get(a[r / 4], r % 4), f4_get(b[col / 4], col % 4), acc[r][col]);
                }
        } else {
            static_assert(kTM % 2 == 0 && kTN % 4 == 0, "kBlocks2x4 visits blocks of 2 rows x 4 columns");
            static_for<0, kTM * kTN>([&](auto i_const) {
                constexpr int i = decltype(i_const)::value, block = i / 8, in_row = i % 8 / 4, step = i % 4;
                constexpr int r = 2 * (block / (kTN / 4)) + in_row;
                constexpr int col = 4 * (block % (kTN / 4)) + (in_row ? 3 - step : step);
                acc[r][col] = fmaf(f4_get(a[r / 4], r % 4), f4_get(b[col / 4], col % 4), acc[r][col]);
            });
        }
    }
};

// The warp tile of an FfmaTile configuration.
template <FfmaTile kTile>
using FfmaWarpTileOf = FfmaWarpTile<kTile.warp.m, kTile.warp.n, kTile.fma_order>;

// The origin in the block tile of lane `lane` of warp `warp`: warps are laid out row-major over warps_n columns.
template <class Warp>
__device__ __forceinline__ void warp_tile_origin(int warp, int lane, int warps_n, int& row0, int& col0) {
    const int wm = warp / warps_n, wn = warp % warps_n;
    row0 = wm * Warp::kWM + 4 * Warp::lane_m(lane);
    col0 = wn * Warp::kWN + 4 * Warp::lane_n(lane);
}

}  // namespace gemm
