// mma_tf32: warp-level tensor cores, TF32, the Ampere-style step (and the first rung that is not IEEE fp32).
//
// Technique: each warp multiplies with mma.sync.aligned.m16n8k8 (core/mma/tf32_mma_sync.cuh): one instruction does a
// 16 x 8 x 8 product on a tensor core, from fragments spread over the 32 lanes, where the FFMA rungs spend 1,024
// FMA instructions lane by lane. A tensor-core fragment is a fixed map from a small matrix tile to (lane, register):
// the kernel's job is to get each operand's tile from shared memory into that map cheaply. A is kept in shared
// memory as stored (row-major, [m][k]), so ldmatrix.x4 loads a whole A fragment in one instruction; B is kept as
// stored too ([k][n]), where the B fragment needs a column per lane, so its two words come from scalar loads. Every
// operand value is rounded to TF32 (cvt.rna.tf32.f32, to nearest) as its fragment is loaded; products accumulate in
// fp32. Expected error: that of TF32 inputs (each value within 2^-11 relative), which does not grow with K; the
// tests hold it to matmul_opt.tolerance("tf32", K) and to 1.1x cuBLAS TF32's error. K
// longer than kTf32MaxChainK is cut into slices summed in fp32 (core/schedule/split_k.h): over one much longer
// chain the tensor cores' accumulation adds error of its own.
//
// Changes vs pipelined (the cp.async rung): the FFMA warp tile becomes 4 x 4 m16n8k8 MMAs per 8-deep k step; A is no
// longer transposed in shared memory (the fragments read it as stored); the tile copies are this file's own (A rows
// along k, B rows along n, both as stored). Rasterisation and the cp.async ring (core/pipeline/cp_async_ring.cuh) are
// shared with the FFMA rungs.
//
// Tile: 128 x 128 x 32 per block of 256 threads, 8 warps as 2 (M) x 4 (N), warp tile 64 x 32 = 4 x 4 MMA tiles;
// a 3-stage cp.async ring of A [128][36] and B [32][136] floats (107.5 KiB), two blocks per SM.
//
// Padding (why 36 and 136): an ldmatrix phase reads 8 rows of 16 bytes; rows 144 bytes apart fall in 8 distinct
// 16-byte bank groups. A B fragment read has lane (g, t) load k = t, n = g: at a row stride of 136 floats that is
// bank 8t + g (mod 32), all 32 distinct.
//
// What limits it on Hopper: mma.sync runs on the tensor cores at well under the rate of the warpgroup MMA (wgmma)
// that sm_90 adds, and the operands make a trip through registers (ldmatrix, scalar B loads and the TF32 rounding)
// for every MMA tile; the figures are in the report and docs/experiments.
#include "core/copy/cp_async.cuh"
#include "core/device.h"
#include "core/epilogue/direct_store.cuh"
#include "core/launch.h"
#include "core/mma/tf32_mma_sync.cuh"
#include "core/problem.h"
#include "core/pipeline/cp_async_ring.cuh"
#include "core/schedule/raster.cuh"
#include "core/schedule/split_k.h"

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 32, kThreads = 256, kStages = 3;
constexpr int kWarpsN = 4, kWM = 64, kWN = 32;
constexpr int kMTiles = kWM / 16, kNTiles = kWN / 8;  // m16n8 MMA tiles per warp
constexpr int kSA = kBK + 4, kSB = kBN + 8;           // row strides of the shared tiles (the header says why)
constexpr int kAStage = kBM * kSA, kBStage = kBK * kSB;
constexpr int kSmemBytes = kStages * (kAStage + kBStage) * int(sizeof(float));

static_assert((kBM / kWM) * (kBN / kWN) * 32 == kThreads, "one warp per warp tile");
static_assert(kSA % 4 == 0 && (kSA / 4) % 2 == 1, "A rows 16-byte aligned, an odd number of 16-byte groups apart");
static_assert(kSB % 32 == 8, "B fragment reads on 32 distinct banks");
static_assert(gemm::fits_shared_memory(kSmemBytes, 2), "two blocks per SM");

// Copies 4 consecutive floats of a row, those of the first `valid` (may be <= 0) that lie in the matrix, zeros for
// the rest: one 16-byte copy when kAligned and all 4 are valid, else element by element.
template <bool kAligned>
__device__ __forceinline__ void copy4(uint32_t dst, const float* base, const float* src, int valid) {
    if (kAligned && valid >= 4) {
        gemm::cp_async16(dst, src);
        return;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) gemm::cp_async4_zfill(dst + 4 * j, j < valid ? src + j : base, j < valid);
}

// Copies the R x C block at (r0, c0) of a row-major matrix (rows x cols, leading dimension ld) into shared memory
// with row stride S, zeros where the block leaves the matrix: 16-byte chunks spread over the block's threads.
template <int R, int C, int S, bool kAligned>
__device__ __forceinline__ void load_block(float* smem, const float* base, int64_t ld, int rows, int cols, int r0,
                                           int c0, int tid) {
    static_assert(R * C / 4 % kThreads == 0, "whole 16-byte chunks per thread");
#pragma unroll
    for (int i = 0; i < R * C / 4 / kThreads; ++i) {
        const int chunk = tid + i * kThreads, r = chunk / (C / 4), c = chunk % (C / 4) * 4;
        copy4<kAligned>(gemm::smem_addr(smem + r * S + c), base, base + (int64_t(r0) + r) * ld + c0 + c,
                        r0 + r < rows ? cols - c0 - c : 0);
    }
}

// One K tile from k0 into a stage: A's rows m0.. along k and B's rows k0.. along n, as stored.
template <bool kAligned>
__device__ __forceinline__ void load_tile(float* a_s, float* b_s, const GemmArgs& g, int m0, int n0, int k0, int tid) {
    load_block<kBM, kBK, kSA, kAligned>(a_s, g.A, g.lda, g.M, g.K, m0, k0, tid);
    load_block<kBK, kBN, kSB, kAligned>(b_s, g.B, g.ldb, g.K, g.N, k0, n0, tid);
}

// The warp's 4 x 4 MMA tiles over one K tile: per 8-deep step, 4 A fragments by ldmatrix, 4 B fragments by scalar
// loads, 16 MMAs.
__device__ __forceinline__ void multiply_tile(float (&acc)[kMTiles][kNTiles][4], const float* a_s, const float* b_s,
                                              int wm, int wn, int lane) {
    const int g = lane / 4, t = lane % 4;
    const uint32_t a_lane = gemm::smem_addr(a_s + (wm + lane % 16) * kSA + lane / 16 * 4);
#pragma unroll
    for (int kk = 0; kk < kBK; kk += 8) {
        uint32_t a[kMTiles][4], b[kNTiles][2];
#pragma unroll
        for (int i = 0; i < kMTiles; ++i) gemm::ldmatrix_a_tf32(a[i], a_lane + 4 * (i * 16 * kSA + kk));
#pragma unroll
        for (int j = 0; j < kNTiles; ++j) {
            const float* column = b_s + (kk + t) * kSB + wn + j * 8 + g;
            b[j][0] = gemm::to_tf32(column[0]);
            b[j][1] = gemm::to_tf32(column[4 * kSB]);
        }
#pragma unroll
        for (int i = 0; i < kMTiles; ++i)
#pragma unroll
            for (int j = 0; j < kNTiles; ++j) gemm::mma_m16n8k8_tf32(acc[i][j], a[i], b[j]);
    }
}

// Block (x, z) computes output tile x over K slice z (K tiles from z * ktiles_per_split) into slice z of `out`.
template <bool kAligned>
__global__ void __launch_bounds__(kThreads, 2)
    mma_tf32_kernel(const GemmArgs g, gemm::SliceOutput out, int ktiles_per_split) {
    extern __shared__ float4 smem4[];
    float* const a_s = reinterpret_cast<float*>(smem4);
    float* const b_s = a_s + kStages * kAStage;
    int bm = 0, bn = 0;
    gemm::tile_coords(blockIdx.x, tiles_of(g.M, kBM), tiles_of(g.N, kBN), gemm::kRasterBandRows, bm, bn);
    const int m0 = bm * kBM, n0 = bn * kBN;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const int wm = warp / kWarpsN * kWM, wn = warp % kWarpsN * kWN;

    float acc[kMTiles][kNTiles][4] = {};
    const int kt_begin = int(blockIdx.z) * ktiles_per_split;
    const int kt_end = min(int(tiles_of(g.K, kBK)), kt_begin + ktiles_per_split);
    gemm::CpAsyncRing<kStages> ring(kt_begin, kt_end);
    const auto load = [&](int kt, int stage) {
        load_tile<kAligned>(a_s + stage * kAStage, b_s + stage * kBStage, g, m0, n0, kt * kBK, tid);
    };
    ring.fill(load);
    for (int kt = kt_begin; kt < kt_end; ++kt) {
        ring.refill(load);
        multiply_tile(acc, a_s + ring.read_stage() * kAStage, b_s + ring.read_stage() * kBStage, wm, wn, lane);
        ring.advance();
    }

    float* const C = out.base + int64_t(blockIdx.z) * out.slice_stride;
    const int g_row = lane / 4, t_col = 2 * (lane % 4);
#pragma unroll
    for (int i = 0; i < kMTiles; ++i)
#pragma unroll
        for (int j = 0; j < kNTiles; ++j) {
            const int row = m0 + wm + i * 16 + g_row, col = n0 + wn + j * 8 + t_col;
            gemm::store_pair<kAligned>(C, out.ld, g.M, g.N, row, col, acc[i][j][0], acc[i][j][1]);
            gemm::store_pair<kAligned>(C, out.ld, g.M, g.N, row + 8, col, acc[i][j][2], acc[i][j][3]);
        }
}

}  // namespace

// TF32 mma.sync needs sm_80 or newer.
mm_status requires_ampere() {
    int major = 0;
    MM_TRY(gemm::compute_major(&major));
    if (major < 8) return mm_fail(MM_ERR_UNAVAILABLE, "mma_tf32 needs a GPU of compute capability 8.0 or newer");
    return MM_OK;
}

namespace {

// The kernel over K slices (a gemm::SliceLauncher).
mm_status launch_slices(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                        cudaStream_t stream) {
    const dim3 grid(tiles_of(g.M, kBM) * tiles_of(g.N, kBN), 1, splits);
    const bool rows16 = rows_aligned16(g.A, g.lda) && rows_aligned16(g.B, g.ldb) && rows_aligned16(out.base, out.ld);
    return with_alignment(rows16, [&](auto tag) {
        constexpr auto kernel = &mma_tf32_kernel<decltype(tag)::value>;
        MM_TRY(gemm::allow_shared_memory<kernel>(kSmemBytes, "cudaFuncSetAttribute(mma_tf32)"));
        return gemm::launch(kernel, grid, kThreads, kSmemBytes, stream, "mma_tf32", g, out, ktiles_per_split);
    });
}

}  // namespace

// Long K is cut into slices (core/schedule/split_k.h): to fill the SMs, and to keep each accumulation chain within
// kTf32MaxChainK.
mm_status launch_mma_tf32(const GemmArgs& g, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int64_t tiles = tiles_of(g.M, kBM) * tiles_of(g.N, kBN);
    return gemm::run_split_k(g, gemm::choose_tf32_splits(tiles, g.K, sms, 2), kBK, &launch_slices, stream);
}
