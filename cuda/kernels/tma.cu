// tma: Hopper bulk tensor copies (TMA) on an mbarrier ring, with A transposed in shared memory once per tile,
// feeding the warp-tiled micro-kernel: the rung above pipelined.
//
// Technique: one thread per block issues, per K tile, two bulk tensor copies (cp.async.bulk.tensor): an A box of
// BM x BK and a B box of BK x BN, described by tensor maps built on the host. The copy engine computes every
// address, zero-fills whatever lies outside the matrices (ragged edges need no code) and signals the ring
// slot's mbarrier with the bytes it wrote; the block waits on that barrier's phase. No thread spends
// instructions or registers on address arithmetic, predicates or per-element copies. The copy engine cannot
// transpose 4-byte elements, so every thread transposes a block or two of each tile of an operand stored with K
// across its rows (A for op_a = MM_OP_N, B for op_b = MM_OP_T) into a K-major double buffer, overlapped with the
// FMAs of the tile before (core/copy/swizzled_transpose.cuh says why the micro-kernel needs K-major operands); an
// operand stored with K along its rows (A for MM_OP_T, B for MM_OP_N) is read from the ring as it landed. Each
// configuration is instantiated per op combination, so every layout of A and B runs as stored.
//
// Composition: mainloop core/mainloop/ffma_bulk_tensor.cuh (copy/bulk_tensor_tile.cuh on
// pipeline/mbarrier_ring.cuh, copy/swizzled_transpose.cuh, mma/ffma_warp_tile.cuh); schedule: data-parallel, one
// block per tile rasterised in bands (schedule/raster.cuh) and K slice where a dispatcher splits K (split-K,
// schedule/split_k.h, as pipelined does); epilogue: direct, or staged through shared memory
// (epilogue/staged_store.cuh) in the union with the ring.
//
// Changes vs pipelined: bulk tensor copies + mbarriers instead of per-thread cp.async + wait_group; BK 32 (16
// for the 2-block tile) so the per-tile costs (transposition, barrier) are amortised over more FMAs; the k loop
// unrolled by construction, whole or in chunks of 16 k where a long body stalls on instruction fetch; the staged
// epilogue. Operands the copy engine cannot describe (unaligned bases or rows) run on pipelined's kernel of the
// same tile (each configuration's fallback).
//
// Model: a K tile moves (BM + BN) * BK * 4 bytes for 2 * BM * BN * BK FLOP (128x256: 42.7 FLOP/B, 128x128: 32,
// 128x64: 21.3) with 2 copy instructions per block. Per k a thread issues FM + FN LDS.128 for 16 * FM * FN
// FFMA, plus per tile 4 LDS.128 + 4 STS.128 per transposed block. Shared memory: stages * (BM + BN) * BK * 4
// (ring) + 2 * BK * (BM + 4) * 4 (transposed A, for op_a = MM_OP_N) + 2 * BK * (BN + 4) * 4 (transposed B, for
// op_b = MM_OP_T) + barriers + 1 KB alignment, with one ring stage fewer when both are transposed (the
// mainloop's header says why that keeps the depth); the staged tile (BM x (BN + 4) floats) overlays the ring
// and the transposition buffers.
#include "kernels/tma.h"

#include <type_traits>

#include "core/configs/bulk_tensor_tiles.h"
#include "core/configs/pipelined.h"
#include "core/copy/tensor_map.h"
#include "core/device.h"
#include "core/epilogue/direct_store.cuh"
#include "core/epilogue/staged_store.cuh"
#include "core/launch.h"
#include "core/mainloop/ffma_bulk_tensor.cuh"
#include "core/schedule/raster.cuh"
#include "core/schedule/split_k.h"

using gemm::Epilogue;
using gemm::FfmaTile;
using gemm::FmaOrder;

namespace {

// The configurations besides core/configs/bulk_tensor_tiles.h's 128x128x16; the FMA order of each body is the one
// that measures fastest (docs/experiments/2026-11-30-fma-order-search.md, 2026-11-30-staged-epilogue.md).
// Big shapes: 8 warps of 64x64, a 32-k body, 3 stages, stored through shared memory (staged_store.cuh says why).
constexpr FfmaTile kTile128x256x32{.block = {128, 256, 32}, .warp = {64, 64}, .stages = 3, .k_unroll = 32,
                                   .fma_order = FmaOrder::kBlocks2x4, .min_blocks_per_sm = 1};
// The same tile in two 16-k chunks: where one wave of 128x256 tiles fills the GPU, the 32-k body stalls on
// instruction fetch.
constexpr FfmaTile kTile128x256x32k16{.block = {128, 256, 32}, .warp = {64, 64}, .stages = 3, .k_unroll = 16,
                                      .fma_order = FmaOrder::kRows, .min_blocks_per_sm = 1};
// 4 warps of 64x32 (8x8 per thread), two blocks per SM, in 16-k chunks: at one block of 4 warps per SM nothing
// hides the instruction-fetch stalls of a 32-k body.
constexpr FfmaTile kTile128x64x32{.block = {128, 64, 32}, .warp = {64, 32}, .stages = 3, .k_unroll = 16,
                                  .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 2};

template <FfmaTile kTile, Epilogue kEpilogue, class OpA, class OpB>
struct TmaKernel {
    using Mainloop = gemm::FfmaBulkTensorMainloop<kTile, OpA, OpB>;
    using Store = std::conditional_t<kEpilogue == Epilogue::kStaged,
                                     gemm::StagedStore<kTile.block.m, kTile.block.n, kTile.threads()>,
                                     gemm::DirectStore<true>>;
    static_assert(sizeof(typename Store::Storage) <= Mainloop::kReusableBytes, "the staged tile must fit the rings");
};

// One block per output tile (blockIdx.x, rasterised) and K slice (blockIdx.z): the slice's K tiles, stored to
// the slice's output (C itself when K is not split).
template <class Tile, Epilogue kEpilogue, class OpA, class OpB>
__global__ void __launch_bounds__(Tile::value.threads(), Tile::value.min_blocks_per_sm)
    tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
               const gemm::SliceOutput out, const int ktiles_per_split, const int M, const int N, const int K) {
    constexpr FfmaTile kTile = Tile::value;
    using Kernel = TmaKernel<kTile, kEpilogue, OpA, OpB>;
    using Store = typename Kernel::Store;
    constexpr int BM = kTile.block.m, BN = kTile.block.n;
    extern __shared__ __align__(16) uint8_t smem_raw[];
    int bm, bn;
    gemm::tile_coords(blockIdx.x, tiles_of(M, BM), tiles_of(N, BN), gemm::kRasterBandRows, bm, bn);
    const int m0 = bm * BM, n0 = bn * BN;
    const int k_tiles = (K - 1) / kTile.block.k + 1;
    const int kt_begin = int(blockIdx.z) * ktiles_per_split;
    const int kt_end = min(kt_begin + ktiles_per_split, k_tiles);
    typename Kernel::Mainloop loop(smem_raw, &a_map, &b_map, threadIdx.x);
    typename Kernel::Mainloop::Acc acc;
    loop.accumulate(m0, n0, kt_begin, kt_end, acc);
    float* const c_tile = out.base + int64_t(blockIdx.z) * out.slice_stride + int64_t(m0) * out.ld + n0;
    Store::template store<typename Kernel::Mainloop::Warp>(acc, *reinterpret_cast<typename Store::Storage*>(loop.reusable()),
                                                           loop.row0(), loop.col0(), c_tile, out.ld, M - m0, N - n0);
}

// Runs the instantiation of g's op combination over `splits` K slices of ktiles_per_split K tiles each.
template <FfmaTile kTile, Epilogue kEpilogue>
mm_status launch_slices(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                        cudaStream_t stream) {
    return with_ops(g, [&](auto op_a, auto op_b) {
        using Kernel = TmaKernel<kTile, kEpilogue, decltype(op_a), decltype(op_b)>;
        constexpr auto kernel = &tma_kernel<gemm::FfmaTileType<kTile>, kEpilogue, decltype(op_a), decltype(op_b)>;
        CUtensorMap a_map, b_map;
        MM_TRY(gemm::prepare_bulk_copy_launch<kernel>(Kernel::Mainloop::kSmemBytes, g, kTile.block, &a_map, &b_map));
        const dim3 grid(tiles_of(g.M, kTile.block.m) * tiles_of(g.N, kTile.block.n), 1, unsigned(splits));
        return gemm::launch(kernel, grid, kTile.threads(), Kernel::Mainloop::kSmemBytes, stream, "tma", a_map, b_map,
                            out, ktiles_per_split, g.M, g.N, g.K);
    });
}

template <FfmaTile kTile, Epilogue kEpilogue>
mm_status launch(const GemmArgs& g, int splits, cudaStream_t stream) {
    return gemm::run_split_k(g, splits, kTile.block.k, &launch_slices<kTile, kEpilogue>, stream);
}

// The configuration's kernel for row-major operands: every op combination's instantiation has machine code for
// the same architectures, so it answers for all of them.
template <FfmaTile kTile, Epilogue kEpilogue>
constexpr auto kRowMajorKernel = &tma_kernel<gemm::FfmaTileType<kTile>, kEpilogue, OpN, OpN>;

// MM_OK when the configuration's kernel can run here; otherwise why not.
template <FfmaTile kTile, Epilogue kEpilogue>
mm_status require() {
    return gemm::require_bulk_copy(gemm::machine_code_of<kRowMajorKernel<kTile, kEpilogue>>(), "tma");
}

template <FfmaTile kTile, Epilogue kEpilogue>
constexpr gemm::ConfigDesc describe(const char* name, const gemm::ConfigDesc& fallback) {
    return gemm::describe<kTile>(name, true, &gemm::bulk_copy_slices_can_run<kRowMajorKernel<kTile, kEpilogue>>,
                                 &launch<kTile, kEpilogue>, &fallback);
}

}  // namespace

namespace tma {

constinit const gemm::ConfigDesc k128x256x32 =
    describe<kTile128x256x32, Epilogue::kStaged>("tma 128x256x32", pipelined::k128x256x16);
constinit const gemm::ConfigDesc k128x256x32k16 =
    describe<kTile128x256x32k16, Epilogue::kStaged>("tma 128x256x32 k16", pipelined::k128x256x16);
constinit const gemm::ConfigDesc k128x128x16 =
    describe<gemm::kBulkTensorTile128x128x16, Epilogue::kDirect>("tma 128x128x16", pipelined::k128x128x16);
constinit const gemm::ConfigDesc k128x64x32 =
    describe<kTile128x64x32, Epilogue::kDirect>("tma 128x64x32", pipelined::k128x64x16);

}  // namespace tma

// Registry requirement: the bulk-copy instructions exist from compute capability 9.0 (Hopper) on.
mm_status requires_tma() { return require<kTile128x256x32, Epilogue::kStaged>(); }

// Registry entry point: the 128x256x32 configuration alone (its fallback where the copy engine cannot run).
mm_status launch_tma(const GemmArgs& g, cudaStream_t stream) { return gemm::launch_config(tma::k128x256x32, g, 1, stream); }
