// What the probes of this record share: a product through the C API by kernel name on the default stream, cuBLAS's
// for probe_common.h's reference, and a check that exits with the library's message.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "../2026-12-02-staged-skinny/probe_common.h"

static mm_status launch_named(const char* kernel, const GemmArgs& g) {
    return mm_gemm_async(kernel, g.op_a, g.op_b, g.M, g.N, g.K, 1.f, g.A, g.lda, g.B, g.ldb, 0.f, g.C, g.ldc, nullptr);
}
mm_status launch_cublas(const GemmArgs& g, cudaStream_t) { return launch_named("cublas", g); }

static void must(mm_status s) {
    if (s != MM_OK) {
        printf("\nfailed: %s\n", mm_last_error());
        exit(1);
    }
}
