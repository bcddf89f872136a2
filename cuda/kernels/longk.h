// The longk kernel (longk.cu) as a configuration, for best.
#pragma once

#include "core/config.h"

namespace longk {

// The side of the kernel's largest tile of C: where C fits one tile, every block reads a different K slice of
// both operands, so they are read once.
inline constexpr int kMaxTileSide = 64;

// The kernel with its own split of K (splits = 1 only): every SM a K slice of each tile of C.
extern const gemm::ConfigDesc kPlanned;

}  // namespace longk
