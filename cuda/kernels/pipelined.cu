// pipelined: a multi-stage cp.async pipeline around the warp-tiled micro-kernel, the fifth rung.
//
// Technique: the warptile compute (K-major A and B in shared memory, warp tiles of 4x4 fragments,
// register double-buffered) fed by a ring of `stages` shared-memory tiles filled with cp.async: global -> shared
// without passing through registers, so the copies of the next stages - 1 tiles are in flight while this one
// is multiplied, and no registers are spent on staging (the budget goes to bigger per-thread tiles: 8x16). One
// barrier per K tile.
//
// Composition: copy/cp_async_tile.cuh on pipeline/cp_async_ring.cuh, mma/ffma_warp_tile.cuh; schedule: data-parallel, one block per tile rasterised in bands of tile rows
// (schedule/raster.cuh), optionally over K slices (schedule/split_k.h, grid dimension z); epilogue: direct
// (epilogue/direct_store.cuh), into C or into a slice of the split-K workspace.
//
// Changes vs warptile: cp.async instead of ld.global + st.shared; 3+ stages instead of 2; dynamic shared memory;
// the tile as a template argument with several configurations (big tiles for big squares, small ones so small
// shapes still fill the GPU); blocks rasterised in bands for L2 reuse; K slices for splitk and best; every op
// combination taken as stored: each configuration is instantiated per layout of A and B, whose tile copies
// (copy/cp_async_tile.cuh) transpose whichever operand is stored with K across its rows.
//
// Model: a K tile moves (BM+BN)*BK*4 bytes for 2*BM*BN*BK FLOP: 128x256 -> 42.7 FLOP/B, 128x128 -> 32,
// 128x64 -> 21.3, 64x64 -> 16. Per k a thread does FM+FN LDS.128 for 16*FM*FN FMAs (8x16: 6 per 128). Shared
// memory per block: stages*BK*((BM+4) + BN)*4 bytes.
#include "kernels/pipelined.h"

#include "core/device.h"
#include "core/epilogue/direct_store.cuh"
#include "core/copy/cp_async_tile.cuh"
#include "core/launch.h"
#include "core/mma/ffma_warp_tile.cuh"
#include "core/pipeline/cp_async_ring.cuh"
#include "core/schedule/raster.cuh"
#include "core/schedule/split_k.h"

using gemm::FfmaTile;
using gemm::FmaOrder;

namespace {

// The configurations, 4 stages each. Each one's FMA order is the faster of rows and serpentine in the H200
// measurements of both (docs/experiments/2026-11-29-fma-order.md).
// Big squares: 8 warps of 64x64 (8x16 accumulators per thread), one block per SM.
constexpr FfmaTile kTile128x256x16{.block = {128, 256, 16}, .warp = {64, 64}, .stages = 4,
                                   .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 1};
// 4 warps of 64x64, two blocks per SM.
constexpr FfmaTile kTile128x128x16{.block = {128, 128, 16}, .warp = {64, 64}, .stages = 4,
                                   .fma_order = FmaOrder::kRows, .min_blocks_per_sm = 2};
// 4 warps of 64x32 (8x8 per thread), four blocks per SM: twice the tiles of 128x128.
constexpr FfmaTile kTile128x64x16{.block = {128, 64, 16}, .warp = {64, 32}, .stages = 4,
                                  .fma_order = FmaOrder::kRows, .min_blocks_per_sm = 4};
// Small shapes and split-K: 4 warps of 32x32 (4x8 per thread), five blocks per SM.
constexpr FfmaTile kTile64x64x16{.block = {64, 64, 16}, .warp = {32, 32}, .stages = 4,
                                 .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 5};

// Panels: one side of C of a few dozen rows or columns (decode batches, skinny panels, long K over a small C),
// where a 64-row tile would be mostly empty. 4 warps of 32x32 (4x8 per thread) side by side, or 4 of 32x64 in 2x2.
constexpr FfmaTile kTile32x128x16{.block = {32, 128, 16}, .warp = {32, 32}, .stages = 4,
                                  .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 4};
constexpr FfmaTile kTile128x32x16{.block = {128, 32, 16}, .warp = {32, 32}, .stages = 4,
                                  .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 4};
constexpr FfmaTile kTile64x128x16{.block = {64, 128, 16}, .warp = {32, 64}, .stages = 4,
                                  .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 3};

// The kernel's parts, for one configuration.
template <FfmaTile kTile, class OpA, class OpB, bool kAligned>
struct Pipelined {
    using Warp = gemm::FfmaWarpTileOf<kTile>;
    using Copy = gemm::CpAsyncTileCopy<kTile, OpA, OpB, kAligned>;
    using Ring = gemm::CpAsyncRing<kTile.stages>;
    static constexpr int BM = kTile.block.m, BN = kTile.block.n, BK = kTile.block.k;
    static constexpr int kSmemBytes = int(sizeof(typename Copy::Storage));
    static_assert(Copy::valid() && kTile.warps_m() * Warp::kWM == BM && kTile.warps_n() * Warp::kWN == BN &&
                      kTile.threads() <= 1024,
                  "tile configuration violates the copy-map / warp-tile constraints");
    static_assert(kTile.k_body() == BK && BK % 2 == 0,
                  "one straight k body per stage, whose fragment buffers alternate across k");
    static_assert(gemm::fits_shared_memory(kSmemBytes, kTile.min_blocks_per_sm), "shared memory over the limits");
};

// One block per output tile (blockIdx.x, rasterised) and K slice (blockIdx.z). The fragments of the warp tile are
// register double-buffered: the k+1 fragments load while the k FMAs run, and the next stage's first fragments
// load under the last k's FMAs.
template <class Tile, class OpA, class OpB, bool kAligned>
__global__ void __launch_bounds__(Tile::value.threads(), Tile::value.min_blocks_per_sm)
    pipelined_kernel(const GemmMatrices g, const int ktiles_per_split, const gemm::SliceOutput out) {
    using P = Pipelined<Tile::value, OpA, OpB, kAligned>;
    using Warp = typename P::Warp;
    extern __shared__ __align__(16) float smem_raw[];
    auto& smem = *reinterpret_cast<typename P::Copy::Storage*>(smem_raw);
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int bm, bn;
    gemm::tile_coords(blockIdx.x, tiles_of(g.M, P::BM), tiles_of(g.N, P::BN), gemm::kRasterBandRows, bm, bn);
    const int m0 = bm * P::BM, n0 = bn * P::BN;
    const int m_rem = g.M - m0, n_rem = g.N - n0;  // > 0
    // Split-K: this block's slice of the K tiles.
    const int k_tiles = (g.K - 1) / P::BK + 1;  // K >= 1; avoids the overflow of K + BK - 1
    const int64_t slice0 = int64_t(blockIdx.z) * ktiles_per_split;
    const int kt_begin = int(min(slice0, int64_t(k_tiles)));
    const int kt_end = int(min(slice0 + ktiles_per_split, int64_t(k_tiles)));

    const typename P::Copy copy(smem, g, m0, n0, tid);
    const auto load = [&](int kt, int stage) { copy.load(kt, stage); };
    typename Warp::Acc acc;
    Warp::zero(acc);
    typename P::Ring ring(kt_begin, kt_end);
    ring.fill(load);
    int row0, col0;
    gemm::warp_tile_origin<Warp>(warp, lane, Tile::value.warps_n(), row0, col0);

    float4 fa[2][Warp::FM], fb[2][Warp::FN];  // [register buffer][fragment]
    Warp::load(fa[0], fb[0], smem.a + row0, smem.b + col0);
    const int n_tiles = kt_end - kt_begin;
    for (int it = 0; it < n_tiles; ++it) {
        ring.refill(load);
        const float* const a_k = smem.a + ring.read_stage() * P::Copy::kAStage + row0;
        const float* const b_k = smem.b + ring.read_stage() * P::Copy::kBStage + col0;
#pragma unroll
        for (int k = 0; k < P::BK; ++k) {
            if (k + 1 < P::BK) {
                Warp::load(fa[(k + 1) & 1], fb[(k + 1) & 1], a_k + (k + 1) * P::Copy::SA, b_k + (k + 1) * P::Copy::SB);
            } else {  // every read of this stage is issued (the k = BK-1 fragments were loaded at k = BK-2)
                ring.advance();
                Warp::load(fa[(k + 1) & 1], fb[(k + 1) & 1], smem.a + ring.read_stage() * P::Copy::kAStage + row0,
                           smem.b + ring.read_stage() * P::Copy::kBStage + col0);
            }
            Warp::fma(acc, fa[k & 1], fb[k & 1]);
        }
    }
    // Past the last tile the fragment loads above read a stale stage: harmless, nothing writes it (every later
    // commit group is empty) and the values are never used.

    gemm::store_direct<Warp, kAligned>(acc, out.base + int64_t(blockIdx.z) * out.slice_stride + int64_t(m0) * out.ld + n0,
                                       out.ld, row0, col0, m_rem, n_rem);
}

template <FfmaTile kTile, class OpA, class OpB, bool kAligned>
mm_status launch_slices_as(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                           cudaStream_t stream) {
    constexpr int kSmemBytes = Pipelined<kTile, OpA, OpB, kAligned>::kSmemBytes;
    constexpr auto kernel = &pipelined_kernel<gemm::FfmaTileType<kTile>, OpA, OpB, kAligned>;
    MM_TRY(gemm::allow_shared_memory<kernel>(kSmemBytes, "cudaFuncSetAttribute(pipelined)"));
    const dim3 grid(tiles_of(g.M, kTile.block.m) * tiles_of(g.N, kTile.block.n), 1, unsigned(splits));
    return gemm::launch(kernel, grid, kTile.threads(), kSmemBytes, stream, "pipelined", g, ktiles_per_split, out);
}

template <FfmaTile kTile>
mm_status launch_slices(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                        cudaStream_t stream) {
    // A transposed operand is copied element-wise, so only the operands copied by rows (B for op_b = MM_OP_N, A
    // for op_a = MM_OP_T: read) and the output (written) need the vector promise.
    return with_ops(g, [&](auto op_a, auto op_b) {
        using OpA = decltype(op_a);
        using OpB = decltype(op_b);
        const bool rows_a = !OpA::kT || rows_aligned16(g.A, g.lda), rows_b = OpB::kT || rows_aligned16(g.B, g.ldb);
        return with_alignment(rows_b && rows_a && rows_aligned16(out.base, out.ld), [&](auto aligned) {
            return launch_slices_as<kTile, OpA, OpB, decltype(aligned)::value>(g, splits, ktiles_per_split, out, stream);
        });
    });
}

template <FfmaTile kTile>
mm_status launch(const GemmArgs& g, int splits, cudaStream_t stream) {
    return gemm::run_split_k(g, splits, kTile.block.k, &launch_slices<kTile>, stream);
}

template <FfmaTile kTile>
constexpr gemm::ConfigDesc describe(const char* name) {
    return gemm::describe<kTile>(name, true, nullptr, &launch<kTile>, nullptr);
}

}  // namespace

namespace pipelined {

constinit const gemm::ConfigDesc k128x256x16 = describe<kTile128x256x16>("pipelined 128x256x16");
constinit const gemm::ConfigDesc k128x128x16 = describe<kTile128x128x16>("pipelined 128x128x16");
constinit const gemm::ConfigDesc k128x64x16 = describe<kTile128x64x16>("pipelined 128x64x16");
constinit const gemm::ConfigDesc k64x64x16 = describe<kTile64x64x16>("pipelined 64x64x16");
constinit const gemm::ConfigDesc k32x128x16 = describe<kTile32x128x16>("pipelined 32x128x16");
constinit const gemm::ConfigDesc k128x32x16 = describe<kTile128x32x16>("pipelined 128x32x16");
constinit const gemm::ConfigDesc k64x128x16 = describe<kTile64x128x16>("pipelined 64x128x16");

}  // namespace pipelined

// Registry entry point: the 128x128 configuration alone (choosing per shape is `best`'s job).
mm_status launch_pipelined(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(pipelined::k128x128x16, g, 1, stream);
}
