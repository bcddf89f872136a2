// The tiles of the pipelined configurations (the cp.async FFMA kernel's FfmaTile values), shared by the launchers
// without clusters (configs/pipelined.cu) and those that add a tile's K slices within a cluster
// (configs/pipelined_clusters.cu).
#pragma once

#include "core/config.h"

namespace pipelined::tiles {

using gemm::FfmaTile;
using gemm::FmaOrder;

// The configurations, 4 stages each. Each one's FMA order is the faster of rows and serpentine in the H200
// measurements of both (docs/experiments/2026-11-29-fma-order.md).
// Big squares: 8 warps of 64x64 (8x16 accumulators per thread), one block per SM.
constexpr FfmaTile kTile128x256x16{.block = {128, 256, 16}, .warp = {64, 64}, .stages = 4,
                                   .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 1};
// 4 warps of 64x64, two blocks per SM.
constexpr FfmaTile kTile128x128x16{.block = {128, 128, 16}, .warp = {64, 64}, .stages = 4,
                                   .fma_order = FmaOrder::kRows, .min_blocks_per_sm = 2};
// 4 warps of 64x32 (8x8 per thread), four blocks per SM: twice the tiles of 128x128.
constexpr FfmaTile kTile128x64x16{.block = {128, 64, 16}, .warp = {64, 32}, .stages = 4,
                                  .fma_order = FmaOrder::kRows, .min_blocks_per_sm = 4};
// Small shapes and split-K: 4 warps of 32x32 (4x8 per thread), five blocks per SM.
constexpr FfmaTile kTile64x64x16{.block = {64, 64, 16}, .warp = {32, 32}, .stages = 4,
                                 .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 5};

// Panels: one side of C of a few dozen rows or columns (decode batches, skinny panels, long K over a small C),
// where a 64-row tile would be mostly empty. 4 warps of 32x32 (4x8 per thread) side by side, or 4 of 32x64 in 2x2.
constexpr FfmaTile kTile32x128x16{.block = {32, 128, 16}, .warp = {32, 32}, .stages = 4,
                                  .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 4};
constexpr FfmaTile kTile128x32x16{.block = {128, 32, 16}, .warp = {32, 32}, .stages = 4,
                                  .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 4};
constexpr FfmaTile kTile64x128x16{.block = {64, 128, 16}, .warp = {32, 64}, .stages = 4,
                                  .fma_order = FmaOrder::kSerpentine, .min_blocks_per_sm = 3};

}  // namespace pipelined::tiles
