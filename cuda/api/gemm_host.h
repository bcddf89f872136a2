// The host path (gemm_host.cu), for the entry points that wrap it.
#pragma once

#include "api/registry.h"

// Validates, then computes C = alpha·op(A)·op(B) + beta·C on host arrays (mm_gemm_host's contract): returns when C
// holds the result.
mm_status gemm_host(const KernelEntry* entry, const mm_gemm_problem& p);
