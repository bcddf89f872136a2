// The slice-order sum of split-K's slices (device): C = the sum over z < splits of the workspace's slice z, each
// output quad's slices in runs of consecutive slices, each run summed in order from zero (its loads issued in
// batches, so that a run waits for few round trips to memory), the runs' sums added in run order. The order is
// fixed by SliceSum alone, so whichever blocks take the quads, the same inputs give the same bits. The split-K
// reduction kernel (split_k_reduce.cu) runs it over its own grid; a slice kernel launched cooperatively runs it at
// its end, once every slice is written (sum_slices_in_grid), with no second kernel.
#pragma once

#include <cstdint>

#include <cooperative_groups.h>

#include "core/copy/guarded_load.cuh"
#include "core/epilogue/direct_store.cuh"
#include "core/epilogue/split_k_reduce.h"

namespace gemm {

inline constexpr int kSliceSumBatch = 8;  // workspace loads a thread keeps in flight

// Block `block` of `blocks` adds up its share of s's output quads (a block-uniform loop); kThreads threads, `runs`
// kThreads float4 of shared memory for the runs' sums; the slices read by Load (guarded_load.cuh): through the
// read-only cache where an earlier kernel wrote them, from L2 where the same launch did.
template <int kThreads, bool kAlignedC, class Load>
__device__ void add_slices(const SliceSum& s, float4* runs, int64_t block, int64_t blocks) {
    static_assert(kThreads % kMaxSliceRuns == 0, "every run count divides the block");
    const int64_t quads = (int64_t(s.N) - 1) / 4 + 1;
    const int64_t total = int64_t(s.M) * quads;
    const int per_block = kThreads / s.runs;  // quads a block adds up at a time
    const int run_index = int(threadIdx.x) / per_block, slot = int(threadIdx.x) % per_block;
    const int run = (s.splits - 1) / s.runs + 1;
    const int z_begin = run_index * run, z_end = min(s.splits, z_begin + run);
    for (int64_t first = block * per_block; first < total; first += blocks * per_block) {
        const int64_t i = first + slot;
        const int64_t row = i / quads;
        const int col = int(i - row * quads) * 4;
        float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
        if (i < total) {
            const float* w = s.ws + row * s.ldw + col;
            for (int z = z_begin; z < z_end; z += kSliceSumBatch) {
                float4 batch[kSliceSumBatch];
#pragma unroll
                for (int j = 0; j < kSliceSumBatch; ++j)
                    if (z + j < z_end) batch[j] = guarded_row4<Load>(w + (z + j) * s.slab, 0, s.N - col, true);
#pragma unroll
                for (int j = 0; j < kSliceSumBatch; ++j)
                    if (z + j < z_end) add4(sum, batch[j]);
            }
        }
        if (s.runs > 1) {
            runs[threadIdx.x] = sum;
            __syncthreads();
            if (run_index == 0)
                for (int r = 1; r < s.runs; ++r) add4(sum, runs[r * per_block + slot]);
            __syncthreads();
        }
        if (run_index == 0 && i < total) store4<kAlignedC>(s.C + row * s.ldc + col, s.N - col, sum);
    }
}

// The end of a slice kernel launched cooperatively (every thread of every block calls it, after writing its slice to
// the workspace): once every block has, the blocks share out s's output quads. Nothing where s names no C.
template <int kThreads>
__device__ void sum_slices_in_grid(const SliceSum& s) {
    if (s.C == nullptr) return;
    __shared__ float4 runs[kThreads];
    __threadfence();  // this block's slice, seen by every block past the barrier
    cooperative_groups::this_grid().sync();
    const int64_t block = blockIdx.x + int64_t(gridDim.x) * (blockIdx.y + int64_t(gridDim.y) * blockIdx.z);
    const int64_t blocks = int64_t(gridDim.x) * gridDim.y * gridDim.z;
    if (s.aligned_c)
        add_slices<kThreads, true, L2Load>(s, runs, block, blocks);
    else
        add_slices<kThreads, false, L2Load>(s, runs, block, blocks);
}

}  // namespace gemm
