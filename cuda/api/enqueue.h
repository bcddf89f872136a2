// The product as every device-side entry point enqueues it (gemm_async.cu), for the entry points that wrap it. A
// product is described by the C API's problem struct (mm_gemm_problem) everywhere in the library's host code.
#pragma once

#include "api/registry.h"

// What enqueue_gemm does once the product is enqueued, with the operands' GPU still current: return, wait for the
// product to finish, or record a tracked marker after it (mm_gemm_async_tracked's contract).
enum class AfterEnqueue { kReturn, kWait, kTrack };

// Validates, then enqueues C = alpha·op(A)·op(B) + beta·C on `stream` (mm_gemm_async's contract), then does `after`
// (kTrack fills *tracking).
mm_status enqueue_gemm(const KernelEntry* entry, const mm_gemm_problem& p, cudaStream_t stream, AfterEnqueue after,
                       mm_tracking* tracking = nullptr);

// enqueue_gemm once its checks have passed, on operands of the current GPU: for callers that made the operands
// themselves (the host path's device copies), and so need no pointer checks.
mm_status enqueue_checked(const KernelEntry* entry, const mm_gemm_problem& p, cudaStream_t stream);
