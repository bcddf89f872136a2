#include "core/schedule/split_k.h"

#include <atomic>

#include "core/device_buffer.h"
#include "core/epilogue/split_k_reduce.h"

namespace gemm {

int choose_splits(int64_t tiles, int K, int sms, int blocks_per_sm, const SplitKPolicy& policy) {
    // Integer division rounds down: a split that would spill into an extra, mostly empty wave is not taken
    // (2048^2 in 128x256 tiles is 128 tiles on 132 SMs: splitting in 2 would make 2 waves of one).
    int64_t s = (int64_t(sms) * blocks_per_sm * policy.waves) / tiles;
    const int64_t by_k = K / policy.min_slice_k;
    if (s > by_k) s = by_k;
    if (s > policy.max_splits) s = policy.max_splits;
    return s < 2 ? 1 : int(s);
}

int choose_tf32_splits(int64_t tiles, int K, int sms, int blocks_per_sm) {
    const int for_occupancy = choose_splits(tiles, K, sms, blocks_per_sm);
    const int for_accuracy = int((int64_t(K) + kTf32MaxChainK - 1) / kTf32MaxChainK);
    return for_occupancy > for_accuracy ? for_occupancy : for_accuracy;
}

int choose_balanced_tf32_splits(int64_t tiles, int K, int sms, int min_slice_k) {
    const int64_t most = K / min_slice_k < kSplitKPolicy.max_splits ? K / min_slice_k : kSplitKPolicy.max_splits;
    // The busiest SM's share of a tile's K tiles with s slices is waves(s) / s; s is taken over the count so far
    // where its share is smaller by more than a thirty-second.
    const auto waves = [&](int64_t s) { return (tiles * s + sms - 1) / sms; };
    int64_t best = 1;
    for (int64_t s = 2; s <= most; ++s)
        if (32 * waves(s) * best < 31 * waves(best) * s) best = s;
    const int64_t for_accuracy = (int64_t(K) + kTf32MaxChainK - 1) / kTf32MaxChainK;
    return int(best > for_accuracy ? best : for_accuracy);
}

namespace {

std::atomic<bool> cluster_sums_allowed{true};

// At most `splits` even slices of whole bk-deep K tiles, none empty: sets splits and the K tiles of each.
void even_slices(const GemmArgs& g, int bk, int* splits, int* per_split) {
    const int k_tiles = int(tiles_of(g.K, bk));
    const int wanted = *splits < 1 ? 1 : *splits > k_tiles ? k_tiles : *splits;
    *per_split = (k_tiles - 1) / wanted + 1;
    *splits = (k_tiles - 1) / *per_split + 1;  // recounted so that no slice is empty
}

}  // namespace

mm_status run_split_k(const GemmArgs& g, int splits, int bk, SliceLauncher launch, cudaStream_t stream,
                      ReduceOrder order) {
    int per_split = 0;
    even_slices(g, bk, &splits, &per_split);
    if (splits == 1) return launch(g, 1, per_split, SliceOutput{g.C, g.ldc, 0}, stream);

    const int64_t ldw = padded_ld(g.N);  // every workspace row float4 aligned
    const int64_t slab = int64_t(g.M) * ldw;
    DeviceBuffer ws(stream, DeviceBuffer::Pool::kWorkspace);
    MM_TRY(ws.allocate(size_t(splits) * size_t(slab) * sizeof(float), "the split-K workspace"));
    MM_TRY(launch(g, splits, per_split, SliceOutput{ws.data(), ldw, slab}, stream));
    return launch_split_k_reduce(ws.data(), ldw, slab, splits, g, stream, order);
}

void allow_cluster_sums(bool allowed) { cluster_sums_allowed.store(allowed, std::memory_order_relaxed); }

mm_status run_split_k_in_clusters(const GemmArgs& g, int splits, int bk, SliceLauncher launch,
                                  ClusterLauncher clusters, ClustersFit fit, cudaStream_t stream) {
    int per_split = 0;
    even_slices(g, bk, &splits, &per_split);
    bool fits = false;
    if (splits > 1 && splits <= kMaxClusterSlices && cluster_sums_allowed.load(std::memory_order_relaxed))
        MM_TRY(fit(g, splits, &fits));
    if (!fits) return run_split_k(g, splits, bk, launch, stream);
    return clusters(g, splits, per_split, stream);
}

}  // namespace gemm
