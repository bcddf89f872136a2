// Host-side interface of the TMA kernel family (tma.cu), used by best.cu.
#pragma once

#include <cuda.h>

#include "gemm_args.cuh"
#include "pipelined.cuh"

namespace tma {

// Instantiated tile configurations; best_table.h refers to them as pipelined::kNumConfigs + id.
enum ConfigId : int {
    kCfg128x256 = 0,  // 128x256x32, 8 warps of 64x64 (8x16 per thread), 3 stages, 1 block/SM: big shapes
    kCfg128x128 = 1,  // 128x128x16, 4 warps of 64x64 (8x16 per thread), 4 stages, 2 blocks/SM
    kCfg128x64 = 2,   // 128x64x32,  4 warps of 64x32 (8x8 per thread),  3 stages, 2 blocks/SM
    kCfg128x256k16 = 3,  // 128x256x32 with a 16-k loop body: one wave of 128x256 tiles (2048^2)
    kNumConfigs = 4
};

const pipelined::ConfigInfo& config_info(int id);

// True when the bulk-copy path can run this product here: a device of compute capability 9.0 or newer,
// this library built with sm_90 code, the driver's tensor-map encoder found, and operands it can describe
// (16-byte aligned bases, leading dimensions a multiple of 4 floats). Records nothing; cheap after the
// first call on a device.
bool usable(const GemmArgs& g);

// The tensor maps of g's operands for block tiles of bm x bn x bk: A in boxes of bm rows x bk columns
// with the 128- or 64-byte swizzle of rows of bk floats (bk = 32 or 16), B in boxes of bk x bn.
mm_status encode_maps(const GemmArgs& g, int bm, int bn, int bk, CUtensorMap* a_map, CUtensorMap* b_map);

// Enqueues config `id` for C = A·B. Precondition: usable(g).
mm_status launch_config(int id, const GemmArgs& g, cudaStream_t stream);

}  // namespace tma
