// The problem every kernel solves, and the facts about it that every launcher shares.
//
// C = op(A)·op(B) with op(A) M x K, op(B) K x N and C M x N, all stored row-major float32 with leading dimensions
// (elements between the starts of consecutive stored rows). op_a = MM_OP_N stores A as M x K (lda >= K),
// MM_OP_T as K x M (lda >= M); op_b = MM_OP_N stores B as K x N (ldb >= N), MM_OP_T as N x K (ldb >= K). Only
// kernels that the registry marks as taking every op combination see op = T (api/registry.h); the others get
// op_a = op_b = MM_OP_N. The C API validates arguments before any launcher runs, so a launcher may assume
// 1 <= M, N, K <= INT32_MAX, those leading dimensions, ldc >= N, and three pointers to device memory that hold
// the matrices. Pointers and leading dimensions carry no alignment promise: a launcher that wants 16-byte vector
// access asks rows_aligned16 / vector_aligned and falls back to scalar access otherwise.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "core/status.h"

// The dimensions and the matrices. Kernels instantiated per op combination take this part alone as their
// parameter: their op flags are template arguments (OpTag below).
struct GemmMatrices {
    int M, N, K;
    const float* A;
    int64_t lda;
    const float* B;
    int64_t ldb;
    float* C;
    int64_t ldc;
};

// The problem with the layouts of A and B; an initialiser that lists the matrices alone describes the row-major
// product.
struct GemmArgs : GemmMatrices {
    mm_op op_a = MM_OP_N;
    mm_op op_b = MM_OP_N;
};

// An operand's layout as a type, for kernels and copies instantiated per op combination: kT is true when the
// operand is stored transposed (op = MM_OP_T).
template <bool kTransposed>
struct OpTag {
    static constexpr bool kT = kTransposed;
};
using OpN = OpTag<false>;
using OpT = OpTag<true>;

// The two operands as types, for code written once for either: the stored matrix and its leading dimension, and
// `extent`, the dimension of C that the operand spans besides K (M for A, N for B).
struct OperandA {
    __host__ __device__ static const float* matrix(const GemmMatrices& g) { return g.A; }
    __host__ __device__ static int64_t ld(const GemmMatrices& g) { return g.lda; }
    __host__ __device__ static int extent(const GemmMatrices& g) { return g.M; }
};
struct OperandB {
    __host__ __device__ static const float* matrix(const GemmMatrices& g) { return g.B; }
    __host__ __device__ static int64_t ld(const GemmMatrices& g) { return g.ldb; }
    __host__ __device__ static int extent(const GemmMatrices& g) { return g.N; }
};

// Calls f(OpA{}, OpB{}) with the tags of g's op flags: how a launcher picks the instantiation of a kernel
// templated on the operands' layouts.
template <class F>
decltype(auto) with_ops(const GemmArgs& g, F&& f) {
    if (g.op_a == MM_OP_N) return g.op_b == MM_OP_N ? f(OpN{}, OpN{}) : f(OpN{}, OpT{});
    return g.op_b == MM_OP_N ? f(OpT{}, OpN{}) : f(OpT{}, OpT{});
}

// Enqueues C = A·B on `stream` and reports launch errors (cudaGetLastError) as a status.
typedef mm_status (*GemmLauncher)(const GemmArgs& args, cudaStream_t stream);

// True when every row of the matrix at `base` with leading dimension `ld` starts 16-byte aligned, so that its
// rows may be read or written as float4.
__host__ __device__ __forceinline__ bool rows_aligned16(const void* base, int64_t ld) {
    return (reinterpret_cast<uintptr_t>(base) & 15u) == 0 && ld % 4 == 0;
}

// True when the rows of A, B and C may all be accessed as float4.
inline bool vector_aligned(const GemmArgs& g) {
    return rows_aligned16(g.A, g.lda) && rows_aligned16(g.B, g.ldb) && rows_aligned16(g.C, g.ldc);
}

// The leading dimension the library gives the device copies it makes (host arrays, benchmark inputs): the
// row length rounded up to 4 floats, so the vector path of every kernel applies to any shape (4 for an empty
// row, which is still a valid leading dimension).
inline int64_t padded_ld(int64_t columns) { return columns < 1 ? 4 : (columns + 3) / 4 * 4; }

// Number of tiles of size `tile` covering n >= 1 elements; n - 1 avoids the overflow of n + tile - 1.
__host__ __device__ __forceinline__ unsigned tiles_of(int n, int tile) { return unsigned((n - 1) / tile + 1); }

// The same count for 64-bit host sizes (an operand's lines, a panel's rows), 0 for n = 0.
inline int64_t ceil_div(int64_t n, int64_t d) { return (n + d - 1) / d; }

// Calls f(std::true_type{}) when `aligned`, else f(std::false_type{}): how a launcher picks the instantiation
// of a kernel templated on the vector-access promise.
template <class F>
decltype(auto) with_alignment(bool aligned, F&& f) {
    return aligned ? f(std::true_type{}) : f(std::false_type{});
}

// The least ratio of C's long side to its short side for C to count as a panel (best's panel rule, pairwise's panel
// tile): the geometric middle between the squares that best's main table is tuned on and the flattest panels the
// tuner sweeps (a short side of 256 against 4096).
inline constexpr int kPanelMinAspect = 4;

// Whether an M x N C has a short side (is a panel): its long side at least kPanelMinAspect times its short one.
inline bool has_short_side(int64_t M, int64_t N) {
    return (M < N ? M : N) * kPanelMinAspect <= (M < N ? N : M);
}
