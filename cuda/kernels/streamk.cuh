// Host-side interface of the stream-K kernel family (streamk.cu), used by best.cu.
#pragma once

#include "gemm_args.cuh"
#include "pipelined.cuh"

namespace streamk {

// Instantiated tile configurations (those of tma.cuh); best_table.h refers to them as
// pipelined::kNumConfigs + tma::kNumConfigs + id.
enum ConfigId : int {
    kCfg128x256 = 0,  // 128x256x32, 1 block/SM: stream-K over 132 blocks on an H200
    kCfg128x128 = 1,  // 128x128x16, 2 blocks/SM: stream-K over 264 blocks
    // 128x256x32, every tile of the ragged last wave in 3 K pieces of one block each, handed to SMs by the
    // hardware as they free up (streamk.cu: the SMs do not all run at one speed)
    kCfg128x256Tail3 = 2,
    kNumConfigs = 3
};

const pipelined::ConfigInfo& config_info(int id);

// Enqueues config `id` for C = A·B. Precondition: tma::usable(g).
mm_status launch_config(int id, const GemmArgs& g, cudaStream_t stream);

}  // namespace streamk
