// The skinny kernel (skinny.cu) as a configuration, for best.
#pragma once

#include "core/config.h"

namespace skinny {

// The largest small side (rows of C for M <= N, else columns) the kernel takes: where the large operand is stored
// with its rows along C's large side; along K, at most kMaxSmallSideAlongK.
inline constexpr int kMaxSmallSide = 32;
inline constexpr int kMaxSmallSideAlongK = 16;

// Whether the kernel takes g: a small side of at most kMaxSmallSide, or kMaxSmallSideAlongK, by how the large
// operand is stored (along K up to the bulk mainloop's 24 where it runs: sm_90 and the large operand's rows 16-byte
// aligned), and K short enough for the kernels' int k loops (2^31 less a few thousand).
bool takes(const GemmArgs& g);

// Whether the kernel takes g and streams it with its bulk mainloop (a large side wide enough for it on sms SMs).
bool streams_in_bulk(const GemmArgs& g, int sms);

// The kernel with the split of K and the block shape it plans itself (splits = 1 only); elsewhere its fallback,
// pipelined 64x64x16.
extern const gemm::ConfigDesc kPlanned;
// The same, with every K slice summed through split-K's workspace, never in a cluster: for a product that runs
// beside another kernel, where a cluster, whose blocks start together on the SMs of one GPC, waits for that kernel's
// blocks to leave them.
extern const gemm::ConfigDesc kPlannedUnclustered;

}  // namespace skinny
