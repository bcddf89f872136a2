// optimized: shared-memory tiling, the second rung.
//
// Technique: a 32x32 block stages 32x32 tiles of A and B in shared memory and every thread computes one C
// element from them, so each global element is loaded once per block instead of once per thread: global
// traffic drops 32x (8 bytes per 32 FMAs per thread, 2 FLOP/B of global traffic). Rows are padded (B to 33
// floats, A to 36) so that column walks through a tile fall in different banks; the 32-step inner loop is
// fully unrolled. Changes vs naive: on-chip reuse through shared memory. Shared-memory instructions bound it:
// per 32 FMAs a thread issues 32 scalar B loads and 8 float4 A loads (the A row is a warp-wide broadcast),
// against 4 FMA issues per load issue on the SM. Tile: 32x32x32, 1024 threads, 8.8 KB of shared memory.
#include "core/launch.h"
#include "core/problem.h"

namespace {

constexpr int kTile = 32;
// A rows are padded by 4 floats, not 1: the padding still staggers banks, and rows stay 16-byte aligned so each
// thread reads four A values with one vector load (a warp shares its A row, so it is a broadcast).
constexpr int kAPad = 4;

__global__ void __launch_bounds__(kTile * kTile) optimized_kernel(GemmArgs g) {
    __shared__ __align__(16) float a_tile[kTile][kTile + kAPad];
    __shared__ float b_tile[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty;
    const int col = blockIdx.x * kTile + tx;
    const float* a_row = g.A + int64_t(row) * g.lda;
    float sum = 0.0f;
    for (int k0 = 0; k0 < g.K; k0 += kTile) {
        a_tile[ty][tx] = (row < g.M && k0 + tx < g.K) ? a_row[k0 + tx] : 0.0f;
        b_tile[ty][tx] = (k0 + ty < g.K && col < g.N) ? g.B[int64_t(k0 + ty) * g.ldb + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kTile; ++k) sum = fmaf(a_tile[ty][k], b_tile[k][tx], sum);
        __syncthreads();
    }
    if (row < g.M && col < g.N) g.C[int64_t(row) * g.ldc + col] = sum;
}

}  // namespace

mm_status launch_optimized(const GemmArgs& g, cudaStream_t stream) {
    static_assert(kTile * kTile <= 1024, "a block holds at most 1024 threads");
    static_assert((kTile + kAPad) % 4 == 0, "A rows must stay 16-byte aligned for vector reads");
    static_assert(kTile * (2 * kTile + 1 + kAPad) * sizeof(float) <= 48 * 1024, "static shared memory is capped at 48 KB");
    return gemm::launch(optimized_kernel, dim3(tiles_of(g.N, kTile), tiles_of(g.M, kTile)), dim3(kTile, kTile), 0,
                        stream, "optimized", g);
}
