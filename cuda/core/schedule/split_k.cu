#include "core/schedule/split_k.h"

#include <atomic>

#include "core/device.h"
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

int tf32_chain_splits(int64_t K, int chains_per_slice) {
    const int64_t chain = int64_t(kTf32MaxChainK) * chains_per_slice;
    return int((K + chain - 1) / chain);
}

int choose_tf32_splits(int64_t tiles, int K, int sms, int blocks_per_sm) {
    const int for_occupancy = choose_splits(tiles, K, sms, blocks_per_sm);
    const int for_accuracy = tf32_chain_splits(K, 1);
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
    const int64_t for_accuracy = tf32_chain_splits(K, 1);
    return int(best > for_accuracy ? best : for_accuracy);
}

namespace {

std::atomic<bool> sums_in_launch_allowed{true};

// At most `splits` even slices of whole bk-deep K tiles, none empty: sets splits and the K tiles of each.
void even_slices(const GemmArgs& g, int bk, int* splits, int* per_split) {
    const int k_tiles = int(tiles_of(g.K, bk));
    const int wanted = *splits < 1 ? 1 : *splits > k_tiles ? k_tiles : *splits;
    *per_split = (k_tiles - 1) / wanted + 1;
    *splits = (k_tiles - 1) / *per_split + 1;  // recounted so that no slice is empty
}

// f(splits, per_split, out, sum) for g's product over at most `splits` even slices of whole bk-deep K tiles: one
// slice straight into C (sum names no C), several into a workspace from the library's pool, which stays allocated
// (stream-ordered) until f has enqueued what reads it, with `sum` their slice-order sum into C.
template <class F>
mm_status with_slices(const GemmArgs& g, int splits, int bk, cudaStream_t stream, F&& f) {
    int per_split = 0;
    even_slices(g, bk, &splits, &per_split);
    if (splits == 1) return f(1, per_split, SliceOutput{g.C, g.ldc, 0}, SliceSum{});

    const int64_t ldw = padded_ld(g.N);  // every workspace row float4 aligned
    const int64_t slab = int64_t(g.M) * ldw;
    DeviceBuffer ws(stream, DeviceBuffer::Pool::kWorkspace);
    MM_TRY(ws.allocate(size_t(splits) * size_t(slab) * sizeof(float), "the split-K workspace"));
    int sms = 0;
    MM_TRY(sm_count(&sms));
    const SliceSum sum = slice_order_sum(ws.data(), ldw, slab, splits, g, sms);
    return f(splits, per_split, SliceOutput{ws.data(), ldw, slab}, sum);
}

}  // namespace

mm_status run_split_k(const GemmArgs& g, int splits, int bk, SliceLauncher launch, cudaStream_t stream,
                      ReduceOrder order) {
    return with_slices(g, splits, bk, stream, [&](int n, int per_split, SliceOutput out, const SliceSum& sum) {
        MM_TRY(launch(g, n, per_split, out, stream));
        if (sum.C == nullptr) return MM_OK;
        return launch_split_k_reduce(sum, stream, order);
    });
}

mm_status run_split_k_summed_in_grid(const GemmArgs& g, int splits, int bk, SummingSliceLauncher launch,
                                     cudaStream_t stream) {
    const bool allowed = sums_in_launch_allowed.load(std::memory_order_relaxed);
    return with_slices(g, splits, bk, stream, [&](int n, int per_split, SliceOutput out, const SliceSum& sum) {
        bool summed = false;
        MM_TRY(launch(g, n, per_split, out, allowed ? sum : SliceSum{}, &summed, stream));
        if (summed || sum.C == nullptr) return MM_OK;
        return launch_split_k_reduce(sum, stream);
    });
}

void allow_sums_in_launch(bool allowed) { sums_in_launch_allowed.store(allowed, std::memory_order_relaxed); }

mm_status run_split_k_in_clusters(const GemmArgs& g, int splits, int bk, SliceLauncher launch,
                                  ClusterLauncher clusters, ClustersFit fit, cudaStream_t stream) {
    int per_split = 0;
    even_slices(g, bk, &splits, &per_split);
    bool fits = false;
    if (splits > 1 && splits <= kMaxClusterSlices && sums_in_launch_allowed.load(std::memory_order_relaxed))
        MM_TRY(fit(g, splits, &fits));
    if (!fits) return run_split_k(g, splits, bk, launch, stream);
    return clusters(g, splits, per_split, stream);
}

}  // namespace gemm
