// The split-K reduction epilogue (host interface; the kernel is in split_k_reduce.cu).
#pragma once

#include "core/problem.h"

namespace gemm {

// The order in which the slices are added: one after another (a chain of splits additions), or pairwise (slice
// pairs, then pairs of pairs: a chain of about log2(splits)), which keeps the rounding error of many slices small.
// Either is fixed by the slice count alone.
enum class ReduceOrder { kSliceOrder, kPairwise };

// The most runs slice_order_runs gives.
inline constexpr int kMaxSliceRuns = 32;

// The runs the slice-order reduction of an M x N product's `splits` slices adds up apart, on a GPU of `sms` SMs:
// each run of (splits - 1) / runs + 1 consecutive slices (the last one shorter, or empty) is summed in order from
// zero, and the runs' sums are added to the first in run order. More than one only where the outputs are too few
// to fill the GPU and the slices many.
int slice_order_runs(int M, int N, int splits, int sms);

// A slice-order sum of an M x N product's `splits` slices into C: slice z at ws + z * slab, leading dimension ldw (ws
// 16-byte aligned, ldw and slab multiples of 4 floats), in `runs` runs (slice_order_runs); aligned_c: C's rows may be
// written 16 bytes at a time. What the reduction kernel and a cooperative slice kernel's end take
// (core/epilogue/slice_sum.cuh); a C of nullptr names no sum.
struct SliceSum {
    const float* ws = nullptr;
    int64_t ldw = 0, slab = 0;
    int splits = 0;
    float* C = nullptr;
    int64_t ldc = 0;
    int M = 0, N = 0;
    int runs = 1;
    bool aligned_c = false;
};

// The slice-order sum of g's product from the workspace ws into g.C, on a GPU of `sms` SMs.
SliceSum slice_order_sum(const float* ws, int64_t ldw, int64_t slab, int splits, const GemmArgs& g, int sms);

// Enqueues the kernel that adds up `sum`'s slices into its C, in `order` (deterministic: the same inputs give the
// same bits; in slice order, in the sum's runs).
mm_status launch_split_k_reduce(const SliceSum& sum, cudaStream_t stream, ReduceOrder order = ReduceOrder::kSliceOrder);

}  // namespace gemm
