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
// A C with a short side (has_short_side: a panel) runs on a panel tile instead, with a cheaper order: the
// 64 x 64 tile is mostly empty on a few dozen rows, and five sets of accumulators would halve the occupancy of the
// tiles that fit a panel. Each thread keeps one accumulator per output, added into a running total every
// kPanelFoldTiles K tiles (PairwiseChunkOrder with one way: a fold), and K is cut into slices of at most
// kPanelMaxSliceK. The longest chains are then kPanelFoldTiles x 16 within a fold, kPanelMaxSliceK / 64 across a
// slice's folds and log2(slices) across slices: a few dozen additions where a loop makes K. A panel whose B is stored
// N x K (a linear layer's weight) is read through one transposing pass over B, as best reads it for the same tiles.
//
// Composition: the cp.async FFMA kernel (core/mainloop/cp_async_ffma.cuh) with its Order part, under the split-K
// schedule (core/schedule/split_k.h) with the pairwise reduction.
//
// Changes vs splitk: 4 interleaved accumulators and a running total per output instead of one accumulator (on a
// panel, one accumulator and a running total); slices of at most kMaxSliceK (kPanelMaxSliceK) even where the tiles
// fill the GPU; the slices added pairwise instead of in order; two blocks per SM instead of five, so that the five
// sets of accumulators fit the registers (on a panel, four blocks, as best's panel tiles).
//
// Tiles: 64 x 64 x 16, 4 warps of 32 x 32 (4 x 8 outputs per thread, as splitk's), 4 stages, two blocks per SM.
// Fewer outputs per thread would fit more blocks, but would load more shared memory per FMA, which bounds this
// kernel more than its occupancy does. Panels: best's panel tiles of the same warps, 32 x 128 for few rows, 128 x 32
// for up to 32 columns and 64 x 64 past that (the fastest of the three in the tuner's panel sweep), four blocks per
// SM, a fold every 4 K tiles (64 k).
#include "core/device.h"
#include "core/layout/rearrange.h"
#include "core/mainloop/cp_async_ffma.cuh"
#include "core/problem.h"
#include "core/schedule/split_k.h"

namespace {

constexpr gemm::FfmaTile kTile{.block = {64, 64, 16}, .warp = {32, 32}, .stages = 4,
                               .fma_order = gemm::FmaOrder::kRows, .min_blocks_per_sm = 2};
using Order = gemm::PairwiseChunkOrder<4, 4, 2>;

// The deepest slice, and the most workspace the slices may take (past it, fewer and deeper slices).
constexpr int kMaxSliceK = 512;
constexpr int64_t kMaxWorkspaceBytes = int64_t(1) << 29;

// Panels: tiles for few rows, few columns up to kPanelNarrowColumns, and more columns; one accumulator folded every
// kPanelFoldTiles K tiles; slices of at most kPanelMaxSliceK.
constexpr gemm::FfmaTile panel_tile(int m, int n) {
    return {.block = {m, n, 16}, .warp = {32, 32}, .stages = 4, .fma_order = gemm::FmaOrder::kSerpentine,
            .min_blocks_per_sm = 4};
}
constexpr gemm::FfmaTile kFewRowsTile = panel_tile(32, 128);
constexpr gemm::FfmaTile kNarrowColumnsTile = panel_tile(128, 32);
constexpr gemm::FfmaTile kFewColumnsTile = panel_tile(64, 64);
constexpr int kPanelNarrowColumns = 32;
constexpr int kPanelFoldTiles = 4;
using PanelOrder = gemm::PairwiseChunkOrder<1, 16, kPanelFoldTiles>;
constexpr int kPanelMaxSliceK = 4096;

// g on kShape over as many slices as fill the GPU, at least enough that none is deeper than max_slice_k, within
// the workspace bound; the slices added pairwise.
template <gemm::FfmaTile kShape, class SumOrder>
mm_status launch_in_slices(const GemmArgs& g, int max_slice_k, int sms, cudaStream_t stream) {
    const int64_t tiles = gemm::output_tiles(g, kShape.block);
    int64_t splits = gemm::choose_splits(tiles, g.K, sms, kShape.min_blocks_per_sm);
    const int64_t for_accuracy = (int64_t(g.K) - 1) / max_slice_k + 1;
    if (splits < for_accuracy) splits = for_accuracy;
    const int64_t slab_bytes = int64_t(g.M) * padded_ld(g.N) * int64_t(sizeof(float));
    const int64_t affordable = kMaxWorkspaceBytes / slab_bytes;
    if (splits > affordable) splits = affordable < 1 ? 1 : affordable;
    return gemm::run_split_k(g, int(splits), kShape.block.k, &gemm::cp_async_ffma::launch_slices<kShape, SumOrder>,
                             stream, gemm::ReduceOrder::kPairwise);
}

// A panel on the panel tile for its shape; with B stored N x K (op_a = N, op_b = T), on B transposed once, as best
// runs its panel tiles there.
mm_status launch_panel(const GemmArgs& g, int sms, cudaStream_t stream) {
    if (g.op_a == MM_OP_N && g.op_b == MM_OP_T) {
        DeviceBuffer b_rows(stream, DeviceBuffer::Pool::kWorkspace);
        GemmArgs n{};
        MM_TRY(gemm::with_b_in_rows(g, b_rows, &n, stream));
        return launch_panel(n, sms, stream);
    }
    if (g.M < g.N) return launch_in_slices<kFewRowsTile, PanelOrder>(g, kPanelMaxSliceK, sms, stream);
    if (g.N <= kPanelNarrowColumns)
        return launch_in_slices<kNarrowColumnsTile, PanelOrder>(g, kPanelMaxSliceK, sms, stream);
    return launch_in_slices<kFewColumnsTile, PanelOrder>(g, kPanelMaxSliceK, sms, stream);
}

}  // namespace

// Registry entry point: every shape, a panel on a panel tile, in slices of bounded depth where the workspace allows.
mm_status launch_pairwise(const GemmArgs& g, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    if (has_short_side(g.M, g.N)) return launch_panel(g, sms, stream);
    return launch_in_slices<kTile, Order>(g, kMaxSliceK, sms, stream);
}
