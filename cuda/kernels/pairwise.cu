// pairwise: fp32 products whose sums over K are made of short chains, for a rounding error below a loop's.
//
// Technique: an IEEE fp32 sum of K products made by one accumulator is a chain of K additions, and its rounding
// error grows with that length. This rung keeps the arithmetic (fp32 FMAs) and changes the order:
//   - each thread keeps 4 accumulators per output, and the 16 k of a K tile go in runs of 4 consecutive k, one run
//     to each accumulator;
//   - every 32 k (two K tiles) the four are added pairwise, ((0 + 1) + (2 + 3)), into a running total and start
//     again from zero (core/mma/ffma_sums.cuh, PairwiseChunkOrder). A K of 4 or less stays one chain of fused
//     multiply-adds, as a loop's;
//   - K is cut into slices of at most kMaxSliceK (and into as many as fill the GPU), and the slices are added
//     pairwise by the reduction (core/epilogue/split_k_reduce.h, ReduceOrder::kPairwise).
// So the longest chain is about 8 within a chunk, kMaxSliceK / 32 across a slice's chunks and log2(slices) across
// slices. The order is fixed by the shape: the same inputs give the same bits. On small outputs cuBLAS fp32's errors
// are those of K split into shallow slices (docs/experiments/2026-12-03-summation-order.md, which emulates this
// order on the CPU); this rung's chains are shorter still, so that its error is within cuBLAS fp32's at every K.
//
// Composition: the cp.async FFMA kernel (core/mainloop/cp_async_ffma.cuh) with its Order part, under the split-K
// schedule (core/schedule/split_k.h) with the pairwise reduction.
//
// Changes vs splitk: 4 interleaved accumulators and a running total per output instead of one accumulator; slices
// of at most kMaxSliceK even where the tiles fill the GPU; the slices added pairwise instead of in order; two blocks
// per SM instead of five, so that the five sets of accumulators fit the registers.
//
// Tile: 64 x 64 x 16, 4 warps of 32 x 32 (4 x 8 outputs per thread, as splitk's), 4 stages, two blocks per SM.
// Fewer outputs per thread would fit more blocks, but would load more shared memory per FMA, which bounds this
// kernel more than its occupancy does.
#include "core/device.h"
#include "core/mainloop/cp_async_ffma.cuh"
#include "core/schedule/split_k.h"

namespace {

constexpr gemm::FfmaTile kTile{.block = {64, 64, 16}, .warp = {32, 32}, .stages = 4,
                               .fma_order = gemm::FmaOrder::kRows, .min_blocks_per_sm = 2};
using Order = gemm::PairwiseChunkOrder<4, 4, 2>;

// The deepest slice, and the most workspace the slices may take (past it, fewer and deeper slices).
constexpr int kMaxSliceK = 512;
constexpr int64_t kMaxWorkspaceBytes = int64_t(1) << 29;

}  // namespace

// Registry entry point: every shape, in slices of at most kMaxSliceK where the workspace allows.
mm_status launch_pairwise(const GemmArgs& g, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int64_t tiles = gemm::output_tiles(g, kTile.block);
    int64_t splits = gemm::choose_splits(tiles, g.K, sms, kTile.min_blocks_per_sm);
    const int64_t for_accuracy = (int64_t(g.K) - 1) / kMaxSliceK + 1;
    if (splits < for_accuracy) splits = for_accuracy;
    const int64_t slab_bytes = int64_t(g.M) * padded_ld(g.N) * int64_t(sizeof(float));
    const int64_t affordable = kMaxWorkspaceBytes / slab_bytes;
    if (splits > affordable) splits = affordable < 1 ? 1 : affordable;
    return gemm::run_split_k(g, int(splits), kTile.block.k, &gemm::cp_async_ffma::launch_slices<kTile, Order>, stream,
                             gemm::ReduceOrder::kPairwise);
}
