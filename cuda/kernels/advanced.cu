// advanced: register tiling, the third rung.
//
// Technique: a 256-thread block computes a 128x128 tile of C, each thread an 8x8 register tile, stepping K
// by 8. Per K step a thread loads 8 A values and 8 B values from shared memory and does 64 FMAs: 4 FMAs per
// shared load instead of the optimized rung's 0.5, and 128x128x8 tiles move 8 KB from global memory per 262K
// FLOP (32 FLOP/B). Global loads are float4 (one A and one B vector per thread per K step), staged through
// registers into double-buffered shared memory so the next tile's loads are in flight while this tile is
// multiplied: one barrier per K step. A thread's 8 columns are strided by 16 so that a warp's B reads hit
// consecutive words (conflict-free) and its stores to C coalesce. A rows are padded to 9 floats.
// Changes vs optimized: register tile, vector loads, double buffering.
// Tile: BM=128, BN=128, BK=8, TM=TN=8, 256 threads, 17 KB shared memory.
//
// Rows or leading dimensions that are not 16-byte aligned use the same kernel with scalar guarded loads
// (kVector = false): a float4 load from an address that is not 16-byte aligned faults.
#include "core/copy/guarded_load.cuh"
#include "core/launch.h"
#include "core/problem.h"

namespace {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int kThreadsX = BN / TN, kThreadsY = BM / TM, kThreads = kThreadsX * kThreadsY;

template <bool kVector>
// Two resident blocks per SM (128 registers a thread) hide the latency that one barrier per K step exposes.
__global__ void __launch_bounds__(kThreads, 2) advanced_kernel(GemmArgs g) {
    __shared__ float a_tile[2][BM][BK + 1];
    __shared__ __align__(16) float b_tile[2][BK][BN];

    const int tid = threadIdx.x;
    const int tx = tid % kThreadsX, ty = tid / kThreadsX;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    // Each thread stages one float4 of A (row tid/2, columns 4*(tid%2)..) and one of B (row tid/32, 4*(tid%32)..).
    const int a_r = tid / 2, a_c = (tid % 2) * 4;
    const int b_r = tid / 32, b_c = (tid % 32) * 4;
    const float* a_src = g.A + int64_t(row0 + a_r) * g.lda;
    const int a_limit = row0 + a_r < g.M ? g.K : 0;
    const float* b_src = g.B + col0 + b_c;
    const int b_limit = g.N - col0 - b_c;

    auto load_a = [&](int k0) { return gemm::load_row4<kVector>(a_src, k0 + a_c, a_limit); };
    auto load_b = [&](int k0) {
        const bool in_k = k0 + b_r < g.K;
        return gemm::load_row4<kVector>(b_src + int64_t(k0 + b_r) * g.ldb, 0, in_k ? b_limit : 0);
    };
    auto store = [&](int buf, float4 a, float4 b) {
        a_tile[buf][a_r][a_c + 0] = a.x;
        a_tile[buf][a_r][a_c + 1] = a.y;
        a_tile[buf][a_r][a_c + 2] = a.z;
        a_tile[buf][a_r][a_c + 3] = a.w;
        *reinterpret_cast<float4*>(&b_tile[buf][b_r][b_c]) = b;
    };

    float acc[TM][TN] = {};
    const int k_tiles = (g.K + BK - 1) / BK;
    store(0, load_a(0), load_b(0));
    __syncthreads();
    for (int t = 0; t < k_tiles; ++t) {
        const int cur = t & 1;
        const bool has_next = t + 1 < k_tiles;
        float4 a_next, b_next;
        if (has_next) {
            a_next = load_a((t + 1) * BK);
            b_next = load_b((t + 1) * BK);
        }
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = a_tile[cur][ty * TM + i][k];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = b_tile[cur][k][tx + j * kThreadsX];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        // The other buffer was last read before the previous barrier, so it is free to overwrite now.
        if (has_next) store(cur ^ 1, a_next, b_next);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = row0 + ty * TM + i;
        if (row >= g.M) break;
        float* c_row = g.C + int64_t(row) * g.ldc;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int col = col0 + tx + j * kThreadsX;
            if (col < g.N) c_row[col] = acc[i][j];
        }
    }
}

}  // namespace

mm_status launch_advanced(const GemmArgs& g, cudaStream_t stream) {
    static_assert(kThreads == 256, "the staging map below assumes 256 threads");
    static_assert(BM * BK == 4 * kThreads && BK * BN == 4 * kThreads, "each thread stages one float4 of A and B");
    static_assert(BK == 8 && BN == 128, "a_r/a_c and b_r/b_c are derived for BK = 8 and BN = 128");
    static_assert((2 * BM * (BK + 1) + 2 * BK * BN) * sizeof(float) <= 48 * 1024, "static smem is capped at 48 KB");
    const dim3 grid(tiles_of(g.N, BN), tiles_of(g.M, BM));
    return with_alignment(vector_aligned(g), [&](auto aligned) {
        return gemm::launch(advanced_kernel<decltype(aligned)::value>, grid, kThreads, 0, stream, "advanced", g);
    });
}
