// The host path (gemm_host.cu), for the entry points that wrap it.
#pragma once

#include "api/registry.h"

// Validates, then computes C = alpha·op(A)·op(B) + beta·C on host arrays (mm_gemm_host's contract): returns when C
// holds the result.
mm_status gemm_host(const KernelEntry* entry, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                    const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);
