// The product as every device-side entry point enqueues it (gemm_async.cu), for the entry points that wrap it.
#pragma once

#include "api/registry.h"

// Validates, then enqueues C = alpha·op(A)·op(B) + beta·C on `stream` (mm_gemm_async's contract); with `wait`,
// returns once it has finished.
mm_status enqueue_gemm(const KernelEntry* entry, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                       const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
                       cudaStream_t stream, bool wait);

// enqueue_gemm once its checks have passed, on operands of the current GPU: for callers that made the operands
// themselves (the host path's device copies), and so need no pointer checks.
mm_status enqueue_checked(const KernelEntry* entry, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K,
                          float alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C,
                          int64_t ldc, cudaStream_t stream);
