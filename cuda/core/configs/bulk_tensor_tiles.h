// The bulk-tensor (TMA) FFMA tile that more than one rung runs: tma's 128x128x16, which streamk shares out by K.
#pragma once

#include "core/config.h"

namespace gemm {

// 4 warps of 64x64 (8x16 per thread), 4 stages, 2 blocks per SM.
inline constexpr FfmaTile kBulkTensorTile128x128x16{.block = {128, 128, 16}, .warp = {64, 64}, .stages = 4,
                                                    .k_unroll = 16, .fma_order = FmaOrder::kRows,
                                                    .min_blocks_per_sm = 2};

}  // namespace gemm
