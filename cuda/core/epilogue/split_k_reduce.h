// The split-K reduction epilogue (host interface; the kernel is in split_k_reduce.cu).
#pragma once

#include "core/problem.h"

namespace gemm {

// C = the sum over z < splits of ws[z * slab + row * ldw + col], in slice order (deterministic: the same inputs
// give the same bits). ws is 16-byte aligned with ldw and slab multiples of 4 floats.
mm_status launch_split_k_reduce(const float* ws, int64_t ldw, int64_t slab, int splits, const GemmArgs& g,
                                cudaStream_t stream);

}  // namespace gemm
