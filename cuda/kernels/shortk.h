// The shortk kernel (shortk.cu) as a configuration, for best.
#pragma once

#include "core/config.h"

namespace shortk {

// The longest K the kernel takes; past it, its fallback runs.
inline constexpr int kMaxK = 16;

// Whether the kernel takes g (K up to kMaxK).
bool takes(const GemmArgs& g);

// The kernel (splits = 1 only); elsewhere its fallback, pipelined 64x128x16.
extern const gemm::ConfigDesc kConfig;

}  // namespace shortk
