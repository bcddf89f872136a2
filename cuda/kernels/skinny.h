// The skinny kernel (skinny.cu) as a configuration, for best.
#pragma once

#include "core/config.h"

namespace skinny {

// The largest small side (rows of C for M <= N, else columns) the kernel takes.
inline constexpr int kMaxSmallSide = 32;

// Whether the kernel takes g: one side of C at most kMaxSmallSide.
bool takes(const GemmArgs& g);

// The kernel with the split of K and the block shape it plans itself (splits = 1 only); elsewhere its fallback,
// pipelined 64x64x16.
extern const gemm::ConfigDesc kPlanned;

}  // namespace skinny
