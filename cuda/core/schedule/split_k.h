// The split-K schedule (host): when M x N gives too few output tiles to fill the GPU, each tile's K range is
// cut into slices computed by separate blocks (grid dimension z), whose partial products a reduction epilogue
// (epilogue/split_k_reduce.h) sums in slice order.
//
// Model: the extra traffic is 2 x splits x M x N x 4 bytes (workspace write + read) against 2 x M x N x K FLOP,
// i.e. 4 x splits / K bytes per FLOP; every slice is kept at least min_slice_k deep, so that is at most
// 4 / min_slice_k B/FLOP (1/64 at 256), small next to the operand traffic.
#pragma once

#include "core/epilogue/split_k_reduce.h"
#include "core/problem.h"

namespace gemm {

struct SplitKPolicy {
    int waves;        // split until the blocks fill about this many full waves (SMs x blocks per SM)
    int min_slice_k;  // but keep every slice at least this deep
    int max_splits;
};

inline constexpr SplitKPolicy kSplitKPolicy{.waves = 1, .min_slice_k = 256, .max_splits = 1024};

// Number of K slices for `tiles` output tiles of a configuration that keeps blocks_per_sm blocks resident per
// SM, by `policy`. Returns 1 when splitting would not help (the tiles already fill the waves, or K is short).
int choose_splits(int64_t tiles, int K, int sms, int blocks_per_sm, const SplitKPolicy& policy = kSplitKPolicy);

// TF32 tensor-core kernels keep every accumulation chain at most this deep: over much longer K the tensor cores'
// fp32 accumulation costs accuracy (measured: docs/experiments/2026-12-01-mma-tf32.md).
inline constexpr int kTf32MaxChainK = 16384;

// The fewest K slices for a TF32 tensor-core kernel that sums each slice in `chains_per_slice` even chains (its
// warps' shares, say), so that no chain is longer than kTf32MaxChainK.
int tf32_chain_splits(int64_t K, int chains_per_slice);

// Slices for a TF32 tensor-core kernel: as choose_splits, and at least enough that none is deeper than
// kTf32MaxChainK.
int choose_tf32_splits(int64_t tiles, int K, int sms, int blocks_per_sm);

// Slices for a TF32 tensor-core kernel of one block per SM whose slices cost little beside its operands (a
// streaming product's): the count whose units share the K tiles out most evenly, that is with the fewest on the
// busiest SM (ceil(tiles x splits / sms) / splits of a tile's K), every slice at least min_slice_k deep; the fewest
// slices where more would take less than a thirty-second off the busiest SM; and at least enough for
// kTf32MaxChainK.
int choose_balanced_tf32_splits(int64_t tiles, int K, int sms, int min_slice_k);

// Where each slice writes its product (not accumulated): slice z at base + z * slice_stride, leading dimension ld.
struct SliceOutput {
    float* base;
    int64_t ld;
    int64_t slice_stride;
};

// Enqueues a kernel over `splits` slices of ktiles_per_split K tiles each (slice z covers K tiles
// [z * ktiles_per_split, min(k tiles, (z + 1) * ktiles_per_split))).
using SliceLauncher = mm_status (*)(const GemmArgs& g, int splits, int ktiles_per_split, SliceOutput out,
                                    cudaStream_t stream);

// C = A·B over at most `splits` even slices of whole bk-deep K tiles, none empty. One slice runs straight into
// C; several write to a workspace from the library's workspace pool (stream-ordered, freed on every exit path)
// and the reduction sums them into C, in `order`.
mm_status run_split_k(const GemmArgs& g, int splits, int bk, SliceLauncher launch, cudaStream_t stream,
                      ReduceOrder order = ReduceOrder::kSliceOrder);

// A SliceLauncher for a kernel that ends in sum_slices_in_grid (core/epilogue/slice_sum.cuh): where `sum` names a C
// and every block of the launch runs at once on the GPU (core/device.h's runs_at_once), it launches cooperatively
// with `sum` (the kernel adds the slices up into C itself) and sets *summed; else it launches without it.
using SummingSliceLauncher = mm_status (*)(const GemmArgs& g, int splits, int ktiles_per_split, SliceOutput out,
                                           const SliceSum& sum, bool* summed, cudaStream_t stream);

// As run_split_k in slice order, for a summing launcher: where sums in the launch are allowed and the launcher could
// launch cooperatively, one launch writes the slices and adds them up, with no reduction kernel; else the reduction
// follows it. The same bits either way.
mm_status run_split_k_summed_in_grid(const GemmArgs& g, int splits, int bk, SummingSliceLauncher launch,
                                     cudaStream_t stream);

// The most K slices one cluster adds up (the portable cluster size).
inline constexpr int kMaxClusterSlices = 8;

// Enqueues a kernel over `splits` slices of ktiles_per_split K tiles each, the slices of each output tile one thread
// block cluster along z that adds them up as the slice-order reduction would (the same bits) and writes C.
using ClusterLauncher = mm_status (*)(const GemmArgs& g, int splits, int ktiles_per_split, cudaStream_t stream);

// Whether g's tiles, each one cluster of `splits` blocks, all run at once on the current GPU (a cluster's blocks
// share one GPC, so fewer clusters than SMs / splits may fit); false where clusters do not run.
using ClustersFit = mm_status (*)(const GemmArgs& g, int splits, bool* fit);

// Whether run_split_k_in_clusters and run_split_k_summed_in_grid may add the slices up within the launch that
// writes them (process-wide; allowed unless set otherwise).
void allow_sums_in_launch(bool allowed);

// As run_split_k (in slice order), for a kernel that can also add up a tile's slices within a cluster: where cluster
// sums are allowed, the slices are at most kMaxClusterSlices and `fit` says that every tile's cluster runs in the
// first wave, `clusters` runs them, with no workspace and no reduction kernel. Clusters that would wait for a second
// wave cost more than the reduction saves, and the workspace path runs.
mm_status run_split_k_in_clusters(const GemmArgs& g, int splits, int bk, SliceLauncher launch,
                                  ClusterLauncher clusters, ClustersFit fit, cudaStream_t stream);

}  // namespace gemm
