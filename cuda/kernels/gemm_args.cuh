// The contract between the C API and every kernel launcher.
//
// The API validates arguments before any launcher runs, so a launcher may assume:
//   1 <= M, N, K <= INT32_MAX; lda >= K, ldb >= N, ldc >= N; all three pointers are device memory
//   that holds the (row-major, leading-dimension-strided) matrices.
// Pointers and leading dimensions carry no alignment promise: a launcher that wants 16-byte vector
// access checks `vector_aligned` and falls back to scalar loads otherwise.
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#include "../status.h"

struct GemmArgs {
    int M, N, K;
    const float* A;
    int64_t lda;
    const float* B;
    int64_t ldb;
    float* C;
    int64_t ldc;
};

// Enqueues C = A·B on `stream` and reports launch errors (cudaGetLastError) as a status.
typedef mm_status (*GemmLauncher)(const GemmArgs& args, cudaStream_t stream);

// True when rows of A, B and C may be read or written as float4: every base pointer 16-byte aligned and
// every leading dimension a multiple of 4 floats.
inline bool vector_aligned(const GemmArgs& g) {
    auto aligned16 = [](const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; };
    return aligned16(g.A) && aligned16(g.B) && aligned16(g.C) && g.lda % 4 == 0 && g.ldb % 4 == 0 &&
           g.ldc % 4 == 0;
}

// The leading dimension the library gives the device copies it makes (host arrays, benchmark inputs): the
// row length rounded up to 4 floats, so the vector path of every kernel applies to any shape.
inline int64_t padded_ld(int64_t columns) { return (columns < 1 ? 1 : columns + 3) / 4 * 4; }

inline unsigned ceil_div(int64_t a, int64_t b) { return static_cast<unsigned>((a + b - 1) / b); }
