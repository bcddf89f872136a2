// The direct epilogue: each thread writes its accumulators straight to C as float4 row pieces (device).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace gemm {

// s += v, element by element (the partial sums of split-K's reduction and of a cluster's slices).
__device__ __forceinline__ void add4(float4& s, const float4& v) {
    s.x += v.x;
    s.y += v.y;
    s.z += v.z;
    s.w += v.w;
}

// Writes v[j] to p[j] for j < valid; one float4 store when kAligned and all four are in bounds.
template <bool kAligned>
__device__ __forceinline__ void store4(float* p, int valid, const float4& v) {
    if (kAligned && valid >= 4) {
        *reinterpret_cast<float4*>(p) = v;
        return;
    }
    if (valid > 0) p[0] = v.x;
    if (valid > 1) p[1] = v.y;
    if (valid > 2) p[2] = v.z;
    if (valid > 3) p[3] = v.w;
}

// Writes the two adjacent accumulators (x, y) of C's row `row` from column `col` (even), each only where it lies in
// the M x N matrix: the epilogue of the tensor-core rungs, whose fragments hold pairs of columns. One float2 store
// when kAligned (C's rows 8-byte aligned) and both are in bounds.
template <bool kAligned>
__device__ __forceinline__ void store_pair(float* C, int64_t ldc, int M, int N, int row, int col, float x, float y) {
    if (row >= M || col >= N) return;
    float* const p = C + int64_t(row) * ldc + col;
    if (kAligned && col + 1 < N) {
        *reinterpret_cast<float2*>(p) = make_float2(x, y);
        return;
    }
    p[0] = x;
    if (col + 1 < N) p[1] = y;
}

// store_pair for a kernel that computes C's transpose: its pair (row, col), (row, col + 1) goes to C(col, row) and
// C(col + 1, row), each only where it lies in the M x N matrix C.
__device__ __forceinline__ void store_transposed_pair(float* C, int64_t ldc, int M, int N, int row, int col, float x,
                                                      float y) {
    if (row >= N || col >= M) return;
    C[int64_t(col) * ldc + row] = x;
    if (col + 1 < M) C[int64_t(col + 1) * ldc + row] = y;
}

// Writes a consumer warpgroup's wgmma accumulators (a 64 x kN product in core/mma/wgmma_tf32.cuh's D layout) into C
// (ld ldc), each pair only where it lies in the M x N product: consumer warpgroup c's rows from row0 + 64 c, its
// columns from col0. kTransposed: C holds the product's transpose (N x M), and each pair goes to its transposed place.
template <int kN, bool kAligned, bool kTransposed = false>
__device__ __forceinline__ void store_warpgroup_tile(const float (&acc)[kN / 2], float* C, int64_t ldc, int M, int N,
                                                     int row0, int col0, int consumer_index) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
    const int row = row0 + 64 * consumer_index + 16 * warp + lane / 4, col = col0 + 2 * (lane % 4);
#pragma unroll
    for (int j = 0; j < kN / 8; ++j) {
        if constexpr (kTransposed) {
            store_transposed_pair(C, ldc, N, M, row, col + 8 * j, acc[4 * j], acc[4 * j + 1]);
            store_transposed_pair(C, ldc, N, M, row + 8, col + 8 * j, acc[4 * j + 2], acc[4 * j + 3]);
        } else {
            store_pair<kAligned>(C, ldc, M, N, row, col + 8 * j, acc[4 * j], acc[4 * j + 1]);
            store_pair<kAligned>(C, ldc, M, N, row + 8, col + 8 * j, acc[4 * j + 2], acc[4 * j + 3]);
        }
    }
}

// Writes a thread's accumulators, laid out as Warp says: FM x FN fragments of 4 x 4, accumulator row 4f + i at
// row_offset(4f + i), each fragment's 4 columns contiguous from col_offset(4g). c points at the block tile's
// (0,0); (row0, col0) is the thread's origin in the block tile; m_rem/n_rem are the rows/columns of C left from
// the block tile's origin (> 0). Every element is guarded; float4 stores only where kAligned and fully inside.
template <class Warp, bool kAligned>
__device__ __forceinline__ void store_direct(const typename Warp::Acc& acc, float* c, int64_t ldc, int row0, int col0,
                                             int m_rem, int n_rem) {
#pragma unroll
    for (int f = 0; f < Warp::FM; ++f)
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int row = row0 + Warp::row_offset(4 * f + i);
            if (row < m_rem) {
                float* c_row = c + int64_t(row) * ldc;
#pragma unroll
                for (int g = 0; g < Warp::FN; ++g) {
                    const int col = col0 + Warp::col_offset(4 * g);
                    const float4 v = make_float4(acc[4 * f + i][4 * g + 0], acc[4 * f + i][4 * g + 1],
                                                 acc[4 * f + i][4 * g + 2], acc[4 * f + i][4 * g + 3]);
                    store4<kAligned>(c_row + col, n_rem - col, v);
                }
            }
        }
}

// The direct epilogue as a kernel composes it (the interface StagedStore has too); it needs no shared memory.
template <bool kAligned>
struct DirectStore {
    struct Storage {};

    template <class Warp>
    __device__ static void store(const typename Warp::Acc& acc, Storage&, int row0, int col0, float* c_tile, int64_t ldc,
                                 int m_rem, int n_rem) {
        store_direct<Warp, kAligned>(acc, c_tile, ldc, row0, col0, m_rem, n_rem);
    }
};

}  // namespace gemm
