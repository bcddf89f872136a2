// Rasterisation: the order in which a grid's blocks walk the output tiles (device).
#pragma once

#include <cstdint>

namespace gemm {

// Tile rows per rasterisation band.
constexpr unsigned kRasterBandRows = 8;

// Maps a linear block id to (tile row, tile column). Tiles are walked in column-major order inside bands of
// `group` tile rows, so the blocks resident at one time share a few A row-panels and B column-panels and hit in
// L2 (group = 1 gives plain row-major order). 64-bit so that a band never overflows even for M or N near
// INT32_MAX.
__device__ __forceinline__ void tile_coords(unsigned pid, unsigned num_bm, unsigned num_bn, unsigned group, int& bm,
                                            int& bn) {
    const uint64_t per_band = uint64_t(group) * num_bn;
    const uint64_t band = pid / per_band;
    const uint64_t first = band * group;
    const uint64_t rows = (num_bm - first < group) ? num_bm - first : group;
    const uint64_t r = pid - band * per_band;
    bm = static_cast<int>(first + r % rows);
    bn = static_cast<int>(r / rows);
}

}  // namespace gemm
