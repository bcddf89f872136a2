// The pipelined configurations (configs/pipelined.cu): the cp.async FFMA kernel at named tiles, for the rungs that
// run them: pipelined, splitk, tma, streamk and skinny (as their fallback), best.
#pragma once

#include "core/config.h"

namespace pipelined {

extern const gemm::ConfigDesc k128x256x16;  // 8 warps of 64x64 (8x16 per thread): big squares
extern const gemm::ConfigDesc k128x128x16;  // 4 warps of 64x64 (8x16 per thread)
extern const gemm::ConfigDesc k128x64x16;   // 4 warps of 64x32 (8x8 per thread)
extern const gemm::ConfigDesc k64x64x16;    // 4 warps of 32x32 (4x8 per thread): small shapes, split-K
extern const gemm::ConfigDesc k32x128x16;   // 4 warps of 32x32 in a row: C with few rows
extern const gemm::ConfigDesc k128x32x16;   // 4 warps of 32x32 in a column: C with few columns
extern const gemm::ConfigDesc k64x128x16;   // 4 warps of 32x64 (4x16 per thread): panels of 33 to 64 rows

}  // namespace pipelined
