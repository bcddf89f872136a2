// Host-side interface of split-K (splitk.cu), used by best.cu.
#pragma once

#include <cstdint>

#include "gemm_args.cuh"

namespace splitk {

// Number of K slices for `tiles` output tiles of a config that keeps blocks_per_sm blocks resident per SM:
// enough slices to fill about `waves` full waves (sms x blocks_per_sm blocks), but every slice at least
// min_slice_k deep and at most max_splits slices. Returns 1 when splitting would not help (the tiles
// already fill that many waves, or K is too short).
int choose_splits(int64_t tiles, int K, int sms, int blocks_per_sm, int waves, int min_slice_k, int max_splits);

// C = A·B with pipelined config `cfg` over `splits` K slices: partial products go to a workspace
// (cudaMallocAsync on `stream`), then a reduction kernel sums them in slice order (deterministic) into C.
// splits <= 1 runs the plain pipelined kernel.
mm_status run(int cfg, int splits, const GemmArgs& g, cudaStream_t stream);

}  // namespace splitk
