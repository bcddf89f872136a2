// The configurations of the tma kernel (tma.cu), for best.
#pragma once

#include "core/config.h"

namespace tma {

extern const gemm::ConfigDesc k128x256x32;     // 8 warps of 64x64, a 32-k body, staged epilogue: big shapes
extern const gemm::ConfigDesc k128x256x32k16;  // the same tile with a 16-k body: one wave of 128x256 tiles
extern const gemm::ConfigDesc k128x128x16;     // core/configs/bulk_tensor_tiles.h's 128x128x16, direct epilogue
extern const gemm::ConfigDesc k128x64x32;      // 4 warps of 64x32 (8x8 per thread), 2 blocks per SM

}  // namespace tma
