// Host-side interface of the pipelined kernel family (pipelined.cu), used by splitk.cu and best.cu.
#pragma once

#include <cstdint>

#include "gemm_args.cuh"

namespace pipelined {

// Instantiated tile configurations. The numeric ids are what best_table.h stores: append new configs at
// the end so that existing tables keep their meaning.
enum ConfigId : int {
    kCfg128x256 = 0,  // 128x256x16, 8 warps of 64x64 (8x16 per thread), 4 stages: big squares
    kCfg128x128 = 1,  // 128x128x16, 4 warps of 64x64 (8x16 per thread), 4 stages
    kCfg128x64 = 2,   // 128x64x16,  4 warps of 64x32 (8x8 per thread),  4 stages
    kCfg64x64 = 3,    // 64x64x16,   4 warps of 32x32 (4x8 per thread),  4 stages: small shapes, split-K
    kNumConfigs = 4
};

struct ConfigInfo {
    const char* name;  // "128x256" etc.
    int bm, bn, bk, threads, stages;
    int blocks_per_sm;  // the occupancy its __launch_bounds__ guarantees (registers), for heuristics
};

// Static description of config `id` (0 <= id < kNumConfigs).
const ConfigInfo& config_info(int id);

// Enqueues config `id` over `splits` K slices of ktiles_per_split K tiles each (slice z covers K tiles
// [z*ktiles_per_split, min(ktiles, (z+1)*ktiles_per_split))); slice z writes its product, not accumulated,
// to out + z*out_split_stride with leading dimension ldo. splits = 1, ktiles_per_split >= ceil(K/BK),
// out = g.C, ldo = g.ldc is the plain GEMM. Reports launch errors as a status.
mm_status launch_config(int id, const GemmArgs& g, int splits, int ktiles_per_split, float* out, int64_t ldo,
                        int64_t out_split_stride, cudaStream_t stream);

}  // namespace pipelined
