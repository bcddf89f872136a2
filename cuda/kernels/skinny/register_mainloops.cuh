// The skinny kernel's register-fed mainloops (device): the large operand X straight from HBM into registers by
// 16-byte loads that bypass L1, the small operand Y from the caches. skinny.cu's header explains both.
#pragma once

#include <type_traits>

#include "core/copy/guarded_load.cuh"
#include "core/unroll.cuh"
#include "kernels/skinny.h"
#include "kernels/skinny/view.cuh"

namespace skinny {

// The most rows of Y each mainloop holds sums for, and the most groups of them (blocks that share X's pieces).
constexpr int kMaxRowsAlongL = 8, kMaxRowsAlongK = 4, kMaxSGroups = 4;
// The most rows of sums for which the mainloop along L keeps two steps of loads in flight (more fill the registers).
constexpr int kMaxRowsInTwoSteps = 4;
static_assert(kMaxSmallSide == kMaxSGroups * kMaxRowsAlongL, "skinny.h's limit: 4 groups of 8 rows along L");
// X along K: the rows of X a warp takes at once, and so the rows of a block.
constexpr int kRowsPerWarp = 4, kRowsPerBlock = kWarps * kRowsPerWarp;

// Y(s0 + s, k + j * kKStep) for s < kRows and j < 4 (zero past S and past k_end), as y[s]'s four elements, by how
// Y is stored; s0 a multiple of 4 where kRows is. kYVector: Y's stored rows may be read 16 bytes at a time. kInside:
// the caller knows every load lies inside and may be read 16 bytes at a time (kKStep 1, k + 3 < k_end, kYVector,
// and Y along S: s0 + kRows rounded up to 4 <= S), so none is guarded; along K a row past S then reads row S - 1
// instead of zeros (its sums are never written).
template <int kRows, YRows kY, bool kYVector, bool kInside = false, int kKStep = 1>
__device__ __forceinline__ void load_y(float4 (&y)[kRows], const SkinnyView& v, int s0, int k, int k_end) {
    using gemm::CachedLoad;
    static_assert(kKStep == 1 || !kInside, "spread k are guarded one by one");
    if constexpr (kY == YRows::kAlongK && kKStep == 1) {  // Y's stored rows are s: 4 k of one s per load
#pragma unroll
        for (int s = 0; s < kRows; ++s) {
            y[s] = kInside ? CachedLoad::four(v.Y + int64_t(min(s0 + s, v.S - 1)) * v.ldy + k)
                           : gemm::guarded_row4<CachedLoad>(v.Y + int64_t(s0 + s) * v.ldy, k,
                                                            s0 + s < v.S ? k_end : 0, kYVector);
        }
    }
    if constexpr (kY == YRows::kAlongK && kKStep > 1) {  // one k of one s per load
#pragma unroll
        for (int s = 0; s < kRows; ++s) {
            const float* const row = v.Y + int64_t(s0 + s) * v.ldy;
            float e[4];
#pragma unroll
            for (int j = 0; j < 4; ++j)
                e[j] = s0 + s < v.S && k + j * kKStep < k_end ? CachedLoad::one(row + k + j * kKStep) : 0.f;
            y[s] = make_float4(e[0], e[1], e[2], e[3]);
        }
    }
    if constexpr (kY == YRows::kAlongS) {  // Y's stored rows are k: 4 s of one k per load
        float e[kRows][4];
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int s = 0; s < kRows; s += 4) {
                const int kj = k + j * kKStep;
                const float* const row = v.Y + int64_t(kj) * v.ldy;
                const float4 q = kInside ? CachedLoad::four(row + s0 + s)
                                         : gemm::guarded_row4<CachedLoad>(row, s0 + s, kj < k_end ? v.S : 0,
                                                                          kYVector);
#pragma unroll
                for (int i = 0; i < 4 && s + i < kRows; ++i) e[s + i][j] = gemm::f4_get(q, i);
            }
#pragma unroll
        for (int s = 0; s < kRows; ++s) y[s] = make_float4(e[s][0], e[s][1], e[s][2], e[s][3]);
    }
}

// One turn of the mainloop along L: kTurn steps, stride apart from k, of 4 k each (k + j * kKStep), into acc.
// kInside: every load of the turn lies inside and is aligned (the interior of the slice, where the loads need no
// guards), else each is guarded.
template <int kRows, int kTurn, YRows kY, bool kXVector, bool kYVector, bool kInside, int kKStep = 1>
__device__ __forceinline__ void along_l_turn(float (&acc)[kRows][4], const SkinnyView& v, int l, int s0, int k,
                                             int stride, int k_end) {
    float4 x[kTurn][4], y[kTurn][kRows];
#pragma unroll
    for (int t = 0; t < kTurn; ++t) {
        const int kt = k + t * stride;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int kj = kt + j * kKStep;
            const float* const row = v.X + int64_t(kj) * v.ldx;
            x[t][j] = kInside ? gemm::StreamedLoad::four(row + l)
                              : gemm::guarded_row4<gemm::StreamedLoad>(row, l, kj < k_end ? v.L : 0, kXVector);
        }
        load_y<kRows, kY, kYVector, kInside, kKStep>(y[t], v, s0, kt, k_end);
    }
#pragma unroll
    for (int t = 0; t < kTurn; ++t)
#pragma unroll
        for (int s = 0; s < kRows; ++s)
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const float a = gemm::f4_get(y[t][s], j);
                acc[s][0] = fmaf(a, x[t][j].x, acc[s][0]);
                acc[s][1] = fmaf(a, x[t][j].y, acc[s][1]);
                acc[s][2] = fmaf(a, x[t][j].z, acc[s][2]);
                acc[s][3] = fmaf(a, x[t][j].w, acc[s][3]);
            }
}

// X along L. kRows: rows of Y held (S rounded up); kXVector, kYVector: X's, Y's stored rows may be read 16 bytes
// at a time. With one step per turn (more rows than kMaxRowsInTwoSteps), where both may and the block's columns of X
// lie inside L (and, Y along S, the block's loads of Y inside S), the turns whose k all lie inside the slice for
// every lane of the warp run without guards; the rest, and every turn otherwise, guard each load. Both add the same
// products in the same order. With two steps per turn the guarded turns alone measure as fast or faster
// (docs/experiments/2026-12-04-along-l-interior.md).
// kSpreadK: a lane's 4 k lie k_lanes apart rather than side by side, so that the lanes of a load read consecutive
// rows of X: for X whose rows hold one l-quad (lane_quads 1, L at most 4), where side-by-side k would have the lanes
// of a load read rows 4 apart, and the warp's four loads read the same sectors again (rows of 16 bytes or less). Its
// kernels of 1 or 2 rows keep 4 steps in flight per turn, so that a block's slice of a long dot product is one turn.
template <int kRows, YRows kY, bool kXVector, bool kYVector, bool kSpreadK = false>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) skinny_along_l(const SkinnyView v) {
    constexpr int kTurn = kSpreadK && kRows <= 2 ? 4 : kRows <= kMaxRowsInTwoSteps ? 2 : 1;  // steps in flight
    static_assert(!kSpreadK || kTurn >= 2, "spread k: at most kMaxRowsInTwoSteps rows, all turns guarded");
    constexpr int kKStep = kSpreadK ? 32 : 1;  // lane_quads 1: 32 k-lanes
    __shared__ float4 block_sums[kRows][32];   // [s][l-quad of the block]
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int lane_quads = v.lane_quads, k_lanes = 32 / lane_quads;
    const int lq = lane % lane_quads, kl = lane / lane_quads;
    const int l = int((column_block(v) * lane_quads + lq) * 4);
    const int s0 = s_group(v) * kRows;
    int k_begin = 0, k_end = 0;
    slice_range(v, &k_begin, &k_end);
    const int stride = 4 * k_lanes * kWarps;  // k the block advances per step

    float acc[kRows][4] = {};
    // A lane's first k: its k-lane's 4 consecutive k, or, spread, k-lane kl's first of 4 k that lie k_lanes apart.
    int k = kSpreadK ? k_begin + 4 * warp * k_lanes + kl : k_begin + 4 * (warp * k_lanes + kl);
    if constexpr (kXVector && kYVector && kTurn == 1) {
        // Warp-uniform: the block's last l-quad inside L, and the turn's last k of the warp's last k-lane inside the
        // slice; so the lanes of a warp leave the unguarded turns together and never run the two kinds apart.
        const int block_l_end = l + 4 * (lane_quads - lq);
        const int warp_k_ahead = 4 * (k_lanes - 1 - kl) + (kTurn - 1) * stride + 3;
        if (block_l_end <= v.L && (kY == YRows::kAlongK || s0 + (kRows + 3) / 4 * 4 <= v.S))
            for (; k + warp_k_ahead < k_end; k += kTurn * stride)
                along_l_turn<kRows, kTurn, kY, kXVector, kYVector, true>(acc, v, l, s0, k, stride, k_end);
    }
    for (; k < k_end; k += kTurn * stride)
        along_l_turn<kRows, kTurn, kY, kXVector, kYVector, false, kKStep>(acc, v, l, s0, k, stride, k_end);

    // The lanes of one l-quad hold sums over different k: a butterfly over the k-lane bits; then the warps' sums,
    // added in warp order.
    for (int mask = lane_quads; mask < 32; mask <<= 1)
#pragma unroll
        for (int s = 0; s < kRows; ++s)
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[s][c] += __shfl_xor_sync(0xffffffffu, acc[s][c], mask);
    for (int w = 0; w < kWarps; ++w) {
        if (warp == w && kl == 0)
#pragma unroll
            for (int s = 0; s < kRows; ++s) {
                float4 sum = w == 0 ? make_float4(0.f, 0.f, 0.f, 0.f) : block_sums[s][lq];
                sum.x += acc[s][0];
                sum.y += acc[s][1];
                sum.z += acc[s][2];
                sum.w += acc[s][3];
                block_sums[s][lq] = sum;
            }
        __syncthreads();
    }
    const int64_t l_block = column_block(v) * lane_quads * 4;
    write_sums<kRows>(v, &block_sums[0][0].x, kRows * 128, [&](int o, int* s, int64_t* at_l) {  // [s][128 l]
        *s = o / 128;
        *at_l = o % 128 < 4 * lane_quads ? l_block + o % 128 : v.L;  // past the block's l: not written
    });
}

// X along K. kRows: rows of Y held (S rounded up); kXVector: X's stored rows may be read 16 bytes at a time (Y's
// always may: an unaligned Y goes to the staged mainloop).
template <int kRows, YRows kY, bool kXVector>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) skinny_along_k(const SkinnyView v) {
    constexpr int kTurn = 2;  // steps whose loads are in flight together
    __shared__ float block_sums[kRowsPerBlock * kRows];  // [row of X][s]
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t row0 = column_block(v) * kRowsPerBlock + warp * kRowsPerWarp;
    const int s0 = s_group(v) * kRows;
    int k_begin = 0, k_end = 0;
    slice_range(v, &k_begin, &k_end);
    constexpr int kStride = 4 * 32;

    float acc[kRowsPerWarp][kRows] = {};
    for (int k = k_begin + 4 * lane; k < k_end; k += kTurn * kStride) {
        float4 x[kTurn][kRowsPerWarp], y[kTurn][kRows];
#pragma unroll
        for (int t = 0; t < kTurn; ++t) {
            const int kt = k + t * kStride;
#pragma unroll
            for (int r = 0; r < kRowsPerWarp; ++r)
                x[t][r] = gemm::guarded_row4<gemm::StreamedLoad>(v.X + (row0 + r) * v.ldx, kt,
                                                                 row0 + r < v.L ? k_end : 0, kXVector);
            load_y<kRows, kY, true>(y[t], v, s0, kt, k_end);
        }
#pragma unroll
        for (int t = 0; t < kTurn; ++t)
#pragma unroll
            for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
                for (int s = 0; s < kRows; ++s) {
                    float sum = acc[r][s];
                    sum = fmaf(x[t][r].x, y[t][s].x, sum);
                    sum = fmaf(x[t][r].y, y[t][s].y, sum);
                    sum = fmaf(x[t][r].z, y[t][s].z, sum);
                    acc[r][s] = fmaf(x[t][r].w, y[t][s].w, sum);
                }
    }

    // The 32 lanes hold sums over different k: a butterfly over all of them.
    for (int mask = 1; mask < 32; mask <<= 1)
#pragma unroll
        for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
            for (int s = 0; s < kRows; ++s) acc[r][s] += __shfl_xor_sync(0xffffffffu, acc[r][s], mask);
    if (lane == 0)
#pragma unroll
        for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
            for (int s = 0; s < kRows; ++s) block_sums[(warp * kRowsPerWarp + r) * kRows + s] = acc[r][s];
    __syncthreads();
    const int64_t row_block = column_block(v) * kRowsPerBlock;
    write_sums<kRows>(v, block_sums, kRowsPerBlock * kRows, [&](int o, int* s, int64_t* at_l) {
        *s = o % kRows;
        *at_l = row_block + o / kRows;
    });
}

}  // namespace skinny
