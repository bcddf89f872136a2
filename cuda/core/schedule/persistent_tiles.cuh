// The work of a persistent grid (device and host): output tiles of kBM x kBN over K slices, each block walking
// the work units from blockIdx.x in steps of gridDim.x (the tile schedule a warp-specialised kernel composes,
// core/kernel/warp_specialized.cuh), and the position of a role in an mbarrier ring.
//
// Unit u of tiles x splits is tile u % tiles (rasterised, schedule/raster.cuh) of K slice u / tiles. A schedule may
// instead split only its tail (schedule/split_tail.h): the tiles of the whole waves stay whole, units
// [0, dp_tiles), and the tiles of the ragged last wave are cut into K pieces that every block shares, each written
// apart (a TileUnit's piece) and summed into C afterwards (epilogue/tail_reduce.h). Every role of a warp-specialised
// block (the producer, the consumers) walks the same units and the same K tiles in the same order, so their ring
// positions agree without communication.
#pragma once

#include <cstdint>

#include "core/config.h"
#include "core/device.h"
#include "core/problem.h"
#include "core/schedule/raster.cuh"
#include "core/schedule/split_k.h"

namespace gemm {

struct PersistentSchedule {
    int M, N, ktiles, ktiles_per_split, tiles_m, tiles_n;
    // Tiles [dp_tiles, tiles) in tail_splits K pieces of tail_ktiles K tiles each (tail_splits = 1: no tail split).
    int dp_tiles, tail_splits, tail_ktiles;
    __host__ __device__ int tiles() const { return tiles_m * tiles_n; }
    __host__ __device__ int splits() const { return (ktiles - 1) / ktiles_per_split + 1; }
    __host__ __device__ int tail_tiles() const { return tiles() - dp_tiles; }
    // The units of the schedule, for a kernel that takes split tails (kSplitTail) or one that does not (whose code
    // then reads none of the tail's fields).
    template <bool kSplitTail = false>
    __host__ __device__ int units() const {
        return kSplitTail && tail_splits > 1 ? dp_tiles + tail_tiles() * tail_splits : tiles() * splits();
    }
};

// The schedule of g in tiles of bm x bn x bk, K cut into slices of ktiles_per_split K tiles.
inline PersistentSchedule persistent_schedule(const GemmArgs& g, int bm, int bn, int bk, int ktiles_per_split) {
    const int tiles_m = int(tiles_of(g.M, bm)), tiles_n = int(tiles_of(g.N, bn)), ktiles = int(tiles_of(g.K, bk));
    return PersistentSchedule{g.M, g.N, ktiles, ktiles_per_split, tiles_m, tiles_n, tiles_m * tiles_n, 1, ktiles};
}

// The grid of a persistent launch: one block per SM, or one per unit where there are fewer.
inline mm_status persistent_blocks(const PersistentSchedule& s, int* blocks) {
    int sms = 0;
    MM_TRY(sm_count(&sms));
    *blocks = s.units() < sms ? s.units() : sms;
    return MM_OK;
}

// A persistent launch over g's K slices of ktiles_per_split K tiles, tiles bm x bn x bk: calls
// launch(aligned, schedule, blocks) with aligned a std::bool_constant (whether out's rows take float4 stores).
template <class Launch>
mm_status launch_persistent(const GemmArgs& g, BlockShape tile, int ktiles_per_split, SliceOutput out,
                            Launch&& launch) {
    const PersistentSchedule s = persistent_schedule(g, tile.m, tile.n, tile.k, ktiles_per_split);
    int blocks = 0;
    MM_TRY(persistent_blocks(s, &blocks));
    return with_alignment(rows_aligned16(out.base, out.ld), [&](auto aligned) { return launch(aligned, s, blocks); });
}

struct TileUnit {
    int m0, n0, slice, kt0, ktiles;  // the tile's origin in C, its K slice, and that slice's K tiles
    int piece;  // a tail piece's place among the pieces (slice * tail tiles + tail tile), or -1: the unit writes C
};

template <int kBM, int kBN, bool kSplitTail = false>
__device__ __forceinline__ TileUnit unit_at(const PersistentSchedule& s, int u) {
    int tile = u % s.tiles(), slice = u / s.tiles(), per_slice = s.ktiles_per_split, piece = -1;
    if (kSplitTail && s.tail_splits > 1 && u >= s.dp_tiles) {
        const int v = u - s.dp_tiles, tail = s.tail_tiles();
        tile = s.dp_tiles + v % tail;
        slice = v / tail;
        per_slice = s.tail_ktiles;
        piece = v;
    }
    int bm = 0, bn = 0;
    tile_coords(tile, s.tiles_m, s.tiles_n, kRasterBandRows, bm, bn);
    const int kt0 = slice * per_slice, kt1 = min(s.ktiles, kt0 + per_slice);
    return TileUnit{bm * kBM, bn * kBN, slice, kt0, kt1 - kt0, piece};
}

// The tile schedule of a persistent kernel that walks tiles of kBM x kBN: the units a block takes are units(s) from
// blockIdx.x in steps of gridDim.x, each unit(s, u). kSplitTail: whether the kernel takes split tails (as units and
// unit_at).
template <int kBM, int kBN, bool kSplitTail = false>
struct PersistentTiles {
    __device__ __forceinline__ static int units(const PersistentSchedule& s) { return s.units<kSplitTail>(); }
    __device__ __forceinline__ static TileUnit unit(const PersistentSchedule& s, int u) {
        return unit_at<kBM, kBN, kSplitTail>(s, u);
    }
};

// The tile schedule of a launch in thread block clusters along z, each cluster one tile's K slices (a grid of
// s.tiles() blocks along x by s.splits() along z, one unit per block): block (x, z) takes K slice z of tile x.
template <int kBM, int kBN>
struct ClusterSliceTiles {
    __device__ __forceinline__ static int units(const PersistentSchedule& s) { return s.tiles(); }
    __device__ __forceinline__ static TileUnit unit(const PersistentSchedule& s, int u) {
        return unit_at<kBM, kBN>(s, u + s.tiles() * int(blockIdx.z));
    }
};

// A position in a ring of kStages: the stage and the parity of its barriers' current phase.
template <int kStages>
struct RingPosition {
    int stage = 0;
    uint32_t phase = 0;
    __device__ void advance() {
        if (++stage == kStages) {
            stage = 0;
            phase ^= 1;
        }
    }
};

}  // namespace gemm
