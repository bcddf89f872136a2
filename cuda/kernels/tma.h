// The configurations of the tma kernel (tma.cu), for best, and the tile streamk shares with it.
#pragma once

#include "core/config.h"

namespace tma {

// 4 warps of 64x64 (8x16 per thread), 4 stages, 2 blocks per SM.
inline constexpr gemm::FfmaTile kTile128x128x16{.block = {128, 128, 16}, .warp = {64, 64}, .stages = 4,
                                                .k_unroll = 16, .fma_order = gemm::FmaOrder::kRows,
                                                .min_blocks_per_sm = 2};

extern const gemm::ConfigDesc k128x256x32;     // 8 warps of 64x64, a 32-k body, staged epilogue: big shapes
extern const gemm::ConfigDesc k128x256x32k16;  // the same tile with a 16-k body: one wave of 128x256 tiles
extern const gemm::ConfigDesc k128x128x16;     // kTile128x128x16, direct epilogue
extern const gemm::ConfigDesc k128x64x32;      // 4 warps of 64x32 (8x8 per thread), 2 blocks per SM

}  // namespace tma
