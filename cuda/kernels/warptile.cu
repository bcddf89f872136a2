// warptile: warp tiling with K-major A, the fourth rung.
//
// Technique: a 256-thread block computes a 128x128 tile of C stepping K by 16. A is stored transposed
// (a_s[k][m], K-major) so both operands are read from shared memory as float4 rows; the 8 warps are laid out
// 2 (M) x 4 (N), each owning a 64x32 sub-tile, and within a warp the 32 lanes form an 8x4 grid with an 8x8
// micro-tile per thread split into 2x2 fragments of 4x4 (core/mma/ffma_warp_tile.cuh): a warp's fragment read touches
// 8 (A) or 4 (B) distinct consecutive float4, so reads are conflict-free broadcasts. Fragments are
// register double-buffered (the k+1 fragments load while the k FMAs run), and the next K tile goes
// global -> registers (issued before the FMAs of this tile) -> the other shared buffer.
//
// Changes vs advanced: A transposed in shared memory (4 LDS.128 per k per thread instead of 8 scalar A
// loads + 2 B vectors), warp-level tiling of the thread grid, register double-buffering of fragments,
// BK 16 (half the barriers per FLOP), and a 1-D grid (no 65535 limit on the number of tile rows).
// The next tile is staged in two halves (before k = 0 and k = 8) to keep the staging registers at 8.
//
// Tile: BM=128, BN=128, BK=16, warp 64x32, thread 8x8, 256 threads. Shared memory: 2 buffers x (16x132 A
// + 16x128 B) floats = 33 KB (A rows padded by 4 floats, see below).
// Model: per K tile a block moves (128+128)*16*4 B = 16 KB from L2/DRAM for 2*128*128*16 = 524K FLOP
// (32 FLOP/B); per k a thread does 4 LDS.128 for 64 FFMA. Registers: 64 accumulators + 2x16 fragment
// floats + 8 staged global floats under the 128 that __launch_bounds__(256, 2) allows, so two blocks (16 warps)
// fit per SM.
//
// Staging map (conflict-free transposing stores): thread (warp w, lane l) loads A row 16w + l%16 at
// k = 4*(2j + l/16), j = 0,1, and writes the 4 values down column (row) of a_s. For a store, a warp's
// addresses are k*132 + row with k in {4c, 4c+4} (c fixed) and 16 consecutive rows: 132*4 = 16 (mod 32)
// banks apart, so the two halves land on disjoint banks. The global side reads 32 contiguous bytes
// (one sector) per row. B: thread loads row w + 8j, columns 4l..4l+3 (a warp reads 512 contiguous bytes).
#include "core/copy/guarded_load.cuh"
#include "core/epilogue/direct_store.cuh"
#include "core/launch.h"
#include "core/mma/ffma_warp_tile.cuh"
#include "core/schedule/raster.cuh"

namespace {

using gemm::f4_get;
using gemm::load_row4;

constexpr int kBM = 128, kBN = 128, kBK = 16, kThreads = 256;
constexpr int kWarpsM = 2, kWarpsN = 4;
// 64x32 warp tile, 8x8 per thread, in rows order: the serpentine order spills to local memory here.
using Warp = gemm::FfmaWarpTile<64, 32, gemm::FmaOrder::kRows>;
constexpr int kSA = kBM + 4;               // a_s row stride: see the staging map above
constexpr int kSB = kBN;                   // b_s rows are read and written whole: no padding needed

template <bool kAligned>
__global__ void __launch_bounds__(kThreads, 2) warptile_kernel(const GemmArgs g) {
    __shared__ __align__(16) float a_s[2][kBK][kSA];
    __shared__ __align__(16) float b_s[2][kBK][kSB];

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int bm, bn;
    gemm::tile_coords(blockIdx.x, tiles_of(g.M, kBM), tiles_of(g.N, kBN), 1, bm, bn);
    const int m0 = bm * kBM, n0 = bn * kBN;
    const int m_rem = g.M - m0, n_rem = g.N - n0;  // > 0
    const bool full_mn = m_rem >= kBM && n_rem >= kBN;

    // Global staging (see the header's map).
    const int a_row = warp * 16 + lane % 16, a_kq = lane / 16;
    const float* a_src = g.A + (int64_t(m0) + a_row) * g.lda;
    const bool a_row_ok = a_row < m_rem;
    const int b_row = warp, b_col = 4 * lane;
    const float* b_src = g.B + n0 + b_col + int64_t(b_row) * g.ldb;
    const int b_cols = n_rem - b_col;

    // Half j of a K tile is k in [8j, 8j + 8) of both operands (A k-quads 2j, 2j+1; B rows 8j..8j+7). One
    // half is staged at a time, so only 8 staged floats are live: the whole tile at once needs 16 and
    // pushes the kernel past 128 registers (spills).
    float4 ra, rb;
    auto load_half = [&](int kt, int j) {
        const int k0 = kt * kBK, k_rem = g.K - k0;
        const int a_k = 4 * (2 * j + a_kq), b_k = b_row + 8 * j;
        const float* a_p = a_src + k0 + a_k;
        const float* b_p = b_src + (int64_t(k0) + 8 * j) * g.ldb;
        if (full_mn && k_rem >= kBK) {
            // Interior: the limits are the constant 4, so load_row4 reduces to a bare float4 load.
            ra = load_row4<kAligned>(a_p, 0, 4);
            rb = load_row4<kAligned>(b_p, 0, 4);
        } else {
            ra = load_row4<kAligned>(a_p, 0, a_row_ok ? k_rem - a_k : 0);
            rb = load_row4<kAligned>(b_p, 0, b_k < k_rem ? b_cols : 0);
        }
    };
    auto store_half = [&](int buf, int j) {
#pragma unroll
        for (int i = 0; i < 4; ++i) a_s[buf][4 * (2 * j + a_kq) + i][a_row] = f4_get(ra, i);
        *reinterpret_cast<float4*>(&b_s[buf][b_row + 8 * j][b_col]) = rb;
    };

    // Compute map.
    int row0, col0;
    gemm::warp_tile_origin<Warp>(warp, lane, kWarpsN, row0, col0);
    Warp::Acc acc;
    Warp::zero(acc);

    const int k_tiles = (g.K - 1) / kBK + 1;  // K >= 1; avoids the overflow of K + kBK - 1
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        load_half(0, j);
        store_half(0, j);
    }
    __syncthreads();

    float4 fa[2][2], fb[2][2];  // [register buffer][fragment]
    for (int kt = 0; kt < k_tiles; ++kt) {
        const int cur = kt & 1;
        const bool has_next = kt + 1 < k_tiles;  // uniform across the block
        // Buffer cur^1 was last read before the previous iteration's barrier, so it may be refilled at any
        // point of this iteration: each half of the next tile is loaded before 8 k-steps of FMAs and stored
        // after them, which hides the global latency behind 512 FMAs per thread.
        if (has_next) load_half(kt + 1, 0);
        Warp::load(fa[0], fb[0], &a_s[cur][0][row0], &b_s[cur][0][col0]);
#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            if (k == kBK / 2 && has_next) {
                store_half(cur ^ 1, 0);
                load_half(kt + 1, 1);
            }
            if (k + 1 < kBK)
                Warp::load(fa[(k + 1) & 1], fb[(k + 1) & 1], &a_s[cur][k + 1][row0], &b_s[cur][k + 1][col0]);
            Warp::fma(acc, fa[k & 1], fb[k & 1]);
        }
        if (has_next) store_half(cur ^ 1, 1);
        __syncthreads();
    }

    gemm::store_direct<Warp, kAligned>(acc, g.C + int64_t(m0) * g.ldc + n0, g.ldc, row0, col0, m_rem, n_rem);
}

}  // namespace

mm_status launch_warptile(const GemmArgs& g, cudaStream_t stream) {
    static_assert(kWarpsM * Warp::kWM == kBM && kWarpsN * Warp::kWN == kBN, "warps must tile the block tile");
    static_assert(kThreads == 32 * kWarpsM * kWarpsN, "one warp per warp tile");
    static_assert(kBM == 16 * (kThreads / 32) && kBK == 16, "A staging map: 16 rows x 16 k per warp");
    static_assert(kBN == 4 * 32 && kBK == 8 * 2, "B staging map: a warp per row, 8 rows per pass, 2 passes");
    static_assert(kSA % 4 == 0 && (kSA * 4) % 32 == 16, "a_s rows 16-byte aligned, k and k+4 on opposite bank halves");
    static_assert(sizeof(float) * 2 * kBK * (kSA + kSB) <= 48 * 1024, "static shared memory is capped at 48 KB");
    static_assert(kBM % 4 == 0 && kBN % 4 == 0 && kBK % 4 == 0, "float4 staging");
    const unsigned blocks = tiles_of(g.M, kBM) * tiles_of(g.N, kBN);
    return with_alignment(vector_aligned(g), [&](auto aligned) {
        return gemm::launch(warptile_kernel<decltype(aligned)::value>, blocks, kThreads, 0, stream, "warptile", g);
    });
}
