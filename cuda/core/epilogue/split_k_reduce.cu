// The split-K reductions. Slice order (core/epilogue/slice_sum.cuh's sum, run over a grid of its own): one thread per
// 4 consecutive outputs, or per run of slices of them where the outputs are too few to fill the GPU and the slices
// many (a long K over a small C). The workspace is 16-byte aligned by construction (cudaMallocAsync alignment, ldw
// and the slab stride multiples of 4), so only the last, partial quad of a row needs scalar reads, which also keeps
// the never-written padding columns unread. The pairwise reduction gives each quad one thread, which adds the slices
// as a binary tree: partial sums of 1, 2, 4, ... slices in registers, combined like the carries of a binary counter
// as the slices come in order.
#include "core/epilogue/split_k_reduce.h"

#include "core/copy/guarded_load.cuh"
#include "core/device.h"
#include "core/epilogue/direct_store.cuh"
#include "core/epilogue/slice_sum.cuh"
#include "core/launch.h"

namespace gemm {

namespace {

constexpr int kReduceThreads = 256;
constexpr int kMinSlicesPerRun = 4;

template <bool kAlignedC>
__global__ void __launch_bounds__(kReduceThreads) split_k_reduce_kernel(const SliceSum s) {
    __shared__ float4 runs[kReduceThreads];
    add_slices<kReduceThreads, kAlignedC, CachedLoad>(s, runs, blockIdx.x, gridDim.x);
}

// The levels of partial sums a pairwise thread keeps: level l holds 2^l slices, so kPairwiseLevels hold
// 2^kPairwiseLevels - 1; past that the top level adds the rest in order.
constexpr int kPairwiseLevels = 11;

template <bool kAlignedC>
__global__ void __launch_bounds__(kReduceThreads)
    split_k_reduce_pairwise_kernel(const float* __restrict__ ws, int64_t ldw, int64_t slab, int splits, int M,
                                   int N, float* __restrict__ C, int64_t ldc) {
    constexpr int kTop = kPairwiseLevels - 1;
    const int64_t quads = (int64_t(N) - 1) / 4 + 1;
    const int64_t total = int64_t(M) * quads;
    const int64_t stride = int64_t(gridDim.x) * kReduceThreads;
    for (int64_t i = int64_t(blockIdx.x) * kReduceThreads + threadIdx.x; i < total; i += stride) {
        const int64_t row = i / quads;
        const int col = int(i - row * quads) * 4;
        const float* w = ws + row * ldw + col;
        float4 level[kPairwiseLevels];
        for (int z = 0; z < splits; ++z) {  // slice z joins the levels that z's set bits say are full
            float4 carry = load_row4<true>(w + z * slab, 0, N - col);
            bool placed = false;
#pragma unroll
            for (int l = 0; l < kPairwiseLevels; ++l) {
                if (placed) continue;
                const bool full = l == kTop ? (z >> l) != 0 : ((z >> l) & 1) != 0;
                if (!full) {
                    level[l] = carry;
                    placed = true;
                } else if (l == kTop) {
                    add4(level[l], carry);
                    placed = true;
                } else {
                    add4(carry, level[l]);
                }
            }
        }
        // The full levels of `splits`, from the latest slices (low levels) to the first (the top).
        float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
        bool started = false;
#pragma unroll
        for (int l = 0; l < kPairwiseLevels; ++l) {
            const bool full = l == kTop ? (splits >> l) != 0 : ((splits >> l) & 1) != 0;
            if (!full) continue;
            if (started) {
                add4(s, level[l]);
            } else {
                s = level[l];
                started = true;
            }
        }
        store4<kAlignedC>(C + row * ldc + col, N - col, s);
    }
}

}  // namespace

int slice_order_runs(int M, int N, int splits, int sms) {
    const int64_t total = int64_t(M) * ((int64_t(N) - 1) / 4 + 1);
    const int64_t resident = int64_t(sms) * 8 * kReduceThreads;
    int runs = 1;
    while (runs < kMaxSliceRuns && 2 * runs * total <= resident && splits >= 2 * runs * kMinSlicesPerRun) runs *= 2;
    return runs;
}

SliceSum slice_order_sum(const float* ws, int64_t ldw, int64_t slab, int splits, const GemmArgs& g, int sms) {
    return SliceSum{.ws = ws,
                    .ldw = ldw,
                    .slab = slab,
                    .splits = splits,
                    .C = g.C,
                    .ldc = g.ldc,
                    .M = g.M,
                    .N = g.N,
                    .runs = slice_order_runs(g.M, g.N, splits, sms),
                    .aligned_c = rows_aligned16(g.C, g.ldc)};
}

mm_status launch_split_k_reduce(const SliceSum& sum, cudaStream_t stream, ReduceOrder order) {
    int sms = 0;
    MM_TRY(sm_count(&sms));
    const int64_t total = int64_t(sum.M) * ((int64_t(sum.N) - 1) / 4 + 1);
    const auto blocks_for = [&](int64_t threads) {
        const int64_t want = (threads - 1) / kReduceThreads + 1;
        return unsigned(want < int64_t(sms) * 8 ? want : int64_t(sms) * 8);
    };
    if (order == ReduceOrder::kPairwise) {
        const auto kernel =
            sum.aligned_c ? split_k_reduce_pairwise_kernel<true> : split_k_reduce_pairwise_kernel<false>;
        return gemm::launch(kernel, blocks_for(total), kReduceThreads, 0, stream, "pairwise split-K reduction", sum.ws,
                            sum.ldw, sum.slab, sum.splits, sum.M, sum.N, sum.C, sum.ldc);
    }
    const auto kernel = sum.aligned_c ? split_k_reduce_kernel<true> : split_k_reduce_kernel<false>;
    return gemm::launch(kernel, blocks_for(total * sum.runs), kReduceThreads, 0, stream, "split-K reduction", sum);
}

}  // namespace gemm
