// The warp-tiled register micro-kernel shared by warptile, pipelined and splitk.
//
// Shared-memory layout it expects: A transposed (K-major, a_s[k][m]) and B as is (b_s[k][n]), so that for a
// fixed k both operands are contiguous rows and every fragment read is one LDS.128.
//
// A warp owns a WM x WN sub-tile of the block tile; its 32 lanes form an LM x LN grid (LM*LN = 32). A thread
// holds FM x FN fragments of 4x4 accumulators: its rows are f*(4*LM) + 4*lm + {0..3} (f < FM) and its columns
// g*(4*LN) + 4*ln + {0..3} (g < FN), i.e. its 4-wide pieces are strided across the warp tile instead of
// contiguous. For one k, the warp's A reads then cover 4*LM consecutive floats per fragment (LM distinct
// float4, the other lanes broadcast) and likewise for B, so no read ever has a bank conflict; and the C
// stores of a row are LN contiguous float4 (whole 32-byte sectors).
//
// Per k a thread issues FM + FN LDS.128 for 16*FM*FN FMAs (8x8: 4 loads / 64 FMA; 8x16: 6 / 128).
#pragma once

#include <type_traits>

#include "tile_io.cuh"

namespace mmk {

// Calls f(std::integral_constant<int, I>{}) for I = First .. Last-1, in order. The index is a compile-time
// constant inside f, so register arrays indexed by it stay in registers whatever the unroller decides.
template <int First, int Last, class F>
__device__ __forceinline__ void static_for(F&& f) {
    if constexpr (First < Last) {
        f(std::integral_constant<int, First>{});
        static_for<First + 1, Last>(f);
    }
}

// The order of one k's FMAs: row by row, each row left to right (kRows); or odd rows right to left
// (kSerpentine), so that a row's first FMA takes the B operand the previous row ended with; or in blocks of
// 2 rows x 4 columns, the blocks row by row and each block a serpentine of its two rows (kBlocks2x4). The
// sums are identical; the order changes how nvcc allocates registers and schedules the FFMA stream, and on
// the H200 that moved a configuration's speed anywhere from 36% slower to 18% faster (each configuration
// names its choice and the measurement behind it; docs/ladder.md has the table).
enum class FmaOrder { kRows, kSerpentine, kBlocks2x4 };

template <int FM, int FN, int LM, int LN, FmaOrder kOrder>
struct WarpTile {
    static_assert(LM * LN == 32, "a warp's lanes must tile exactly 32");
    static constexpr int kTM = 4 * FM;       // rows per thread
    static constexpr int kTN = 4 * FN;       // columns per thread
    static constexpr int kWM = 4 * FM * LM;  // rows per warp
    static constexpr int kWN = 4 * FN * LN;  // columns per warp

    // Lane -> position in the LM x LN lane grid; ln varies fastest so a row's C stores are contiguous.
    __device__ static int lane_m(int lane) { return lane / LN; }
    __device__ static int lane_n(int lane) { return lane % LN; }

    // One k-row of both operands. a_k/b_k point at element (k, this thread's first row/column) of a_s/b_s
    // and must be 16-byte aligned.
    __device__ static void load(float4 (&a)[FM], float4 (&b)[FN], const float* a_k, const float* b_k) {
#pragma unroll
        for (int f = 0; f < FM; ++f) a[f] = *reinterpret_cast<const float4*>(a_k + f * 4 * LM);
#pragma unroll
        for (int g = 0; g < FN; ++g) b[g] = *reinterpret_cast<const float4*>(b_k + g * 4 * LN);
    }

    __device__ static void fma(float (&acc)[kTM][kTN], const float4 (&a)[FM], const float4 (&b)[FN]) {
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

    // Writes the thread's accumulators one float at a time to the positions store() gives them, in a
    // row-major tile of `stride` floats per row (shared memory, on its way to C): unlike store()'s float4
    // stores, this puts no accumulator in a register quad.
    __device__ static void stage(const float (&acc)[kTM][kTN], float* tile, int stride, int row0, int col0) {
#pragma unroll
        for (int f = 0; f < FM; ++f)
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int g = 0; g < FN; ++g)
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                        tile[(row0 + f * 4 * LM + i) * stride + col0 + g * 4 * LN + j] = acc[4 * f + i][4 * g + j];
    }

    // Writes the thread's accumulators. c points at the block tile's (0,0); (row0, col0) is this thread's
    // first element inside the block tile; m_rem/n_rem are the rows/columns of C left from the block
    // tile's origin (> 0). Every element is guarded; float4 stores only where kAligned and fully inside.
    template <bool kAligned>
    __device__ static void store(const float (&acc)[kTM][kTN], float* c, int64_t ldc, int row0, int col0,
                                 int m_rem, int n_rem) {
#pragma unroll
        for (int f = 0; f < FM; ++f)
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int row = row0 + f * 4 * LM + i;
                if (row < m_rem) {
                    float* c_row = c + int64_t(row) * ldc;
#pragma unroll
                    for (int g = 0; g < FN; ++g) {
                        const int col = col0 + g * 4 * LN;
                        const float4 v = make_float4(acc[4 * f + i][4 * g + 0], acc[4 * f + i][4 * g + 1],
                                                     acc[4 * f + i][4 * g + 2], acc[4 * f + i][4 * g + 3]);
                        store4<kAligned>(c_row + col, n_rem - col, v);
                    }
                }
            }
    }
};

}  // namespace mmk
