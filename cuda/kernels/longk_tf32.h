// The longk_tf32 kernel's tiles (longk_tf32.cu), for best_tf32's choice.
#pragma once

#include "core/kernel/warp_k_tiles.h"

namespace longk_tf32 {

// Square tiles of 16, 32 or 64: the least that covers C's larger side, else 64.
using TileSides = gemm::warp_k::TileSides<16, 32, 64>;

}  // namespace longk_tf32
