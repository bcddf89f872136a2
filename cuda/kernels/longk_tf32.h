// The longk_tf32 kernel's tiles (longk_tf32.cu), for best_tf32's choice.
#pragma once

#include "core/problem.h"

namespace longk_tf32 {

// The side of the kernel's square tile for g: the least of 16, 32 and 64 that covers C's larger side, else 64.
inline int tile_side(const GemmArgs& g) {
    const int side = g.M > g.N ? g.M : g.N;
    return side <= 16 ? 16 : side <= 32 ? 32 : 64;
}

}  // namespace longk_tf32
