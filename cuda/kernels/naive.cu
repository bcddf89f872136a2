// naive: the textbook kernel, the bottom rung.
//
// Technique: one thread per element of C; each thread walks its row of A and its column of B in global
// memory. Nothing is reused on chip, so every multiply-add loads 8 bytes (arithmetic intensity 0.25 FLOP/B,
// served mostly by L1/L2). Threads of a warp share one row of A (broadcast) and read consecutive columns of B
// (coalesced). Block: 32x32 threads, one 32x32 tile of C.
#include "core/launch.h"
#include "core/problem.h"

namespace {

constexpr int kTile = 32;

__global__ void __launch_bounds__(kTile * kTile) naive_kernel(GemmArgs g) {
    const int row = blockIdx.y * kTile + threadIdx.y;
    const int col = blockIdx.x * kTile + threadIdx.x;
    if (row >= g.M || col >= g.N) return;
    const float* a = g.A + int64_t(row) * g.lda;
    const float* b = g.B + col;
    float sum = 0.0f;
    for (int k = 0; k < g.K; ++k) sum = fmaf(a[k], b[int64_t(k) * g.ldb], sum);
    g.C[int64_t(row) * g.ldc + col] = sum;
}

}  // namespace

mm_status launch_naive(const GemmArgs& g, cudaStream_t stream) {
    static_assert(kTile * kTile <= 1024, "a block holds at most 1024 threads");
    return gemm::launch(naive_kernel, dim3(tiles_of(g.N, kTile), tiles_of(g.M, kTile)), dim3(kTile, kTile), 0, stream,
                        "naive", g);
}
