// The stream-K schedule's walk (device): which piece of which tile a block computes next.
//
// Ordering, and why it cannot deadlock: the stream-K blocks come last in the grid and walk their ranges back to
// front, so each first computes and publishes the head of the tile its range ends in, and only then the tail it
// finishes, where it waits for the lower-numbered blocks holding that tile's head. Waits only go to lower block
// numbers, which were dispatched earlier (blocks are dispatched in order) and publish before they ever wait.
#pragma once

#include "core/problem.h"
#include "core/schedule/raster.cuh"
#include "core/schedule/stream_k.h"

namespace gemm {

// The first iteration of stream-K block `block`'s range (sk_iters for block >= sk_blocks).
__device__ __forceinline__ int64_t sk_begin(const StreamKSchedule& s, int block) {
    return block >= s.sk_blocks ? s.sk_iters : s.sk_iters * block / s.sk_blocks;
}

// One piece of a block's work: K tiles [kt_begin, kt_end) of the tile at (m0, n0), tile_start being the tile's
// first iteration in the stream-K numbering. done: the block has no more.
struct Piece {
    int m0, n0, kt_begin, kt_end;
    int64_t tile_start;
    int64_t sk_end;  // the walk's position: the next piece ends here
    bool whole_pending, done;
};

// The piece after `prev` for stream-K block `block`, for tiles of BM x BN rasterised as the data-parallel kernels
// do. Blocks [0, dp_tiles) start with whole_pending (their whole tile first, as a data-parallel kernel's blocks);
// the blocks after them (dispatched last) start with sk_end at the end of their range and walk it back to front.
template <int BM, int BN>
__device__ Piece next_piece(const StreamKSchedule& s, int M, int N, int block, Piece prev) {
    Piece p = prev;
    int64_t tile;
    p.kt_begin = 0;
    p.kt_end = s.k_tiles;
    p.tile_start = 0;
    if (prev.whole_pending) {
        tile = blockIdx.x;
        p.whole_pending = false;
    } else if (prev.sk_end > sk_begin(s, block)) {
        const int64_t sk_tile = (prev.sk_end - 1) / s.k_tiles;
        p.tile_start = sk_tile * s.k_tiles;
        const int64_t begin = sk_begin(s, block);
        const int64_t unit_begin = begin > p.tile_start ? begin : p.tile_start;
        p.kt_begin = int(unit_begin - p.tile_start);
        p.kt_end = int(prev.sk_end - p.tile_start);
        tile = s.dp_tiles + sk_tile;
        p.sk_end = unit_begin;
    } else {
        p.done = true;
        return p;
    }
    int bm, bn;
    tile_coords(unsigned(tile), tiles_of(M, BM), tiles_of(N, BN), kRasterBandRows, bm, bn);
    p.m0 = bm * BM;
    p.n0 = bn * BN;
    return p;
}

}  // namespace gemm
