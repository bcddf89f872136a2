// The stream-K schedule and its tail-pieces variant (host side: the plan every block reads).
//
// A GEMM of T output tiles on P resident blocks runs ceil(T / P) waves, and the last one is T mod P tiles wide.
// Stream-K counts that tail's work in K iterations (one BK-deep step of one tile) instead of tiles. The whole
// waves stay whole tiles, one block each (data-parallel); the remaining tiles' iterations, laid out tile after
// tile, are cut into equal contiguous ranges, one per extra block. A range usually ends inside a tile: the block
// that holds a tile's last iterations (its "finisher") adds the partial sums of the blocks that hold its
// earlier ones (epilogue/stream_k_fixup.cuh) and stores the tile. When the remainder is under half a wave, one
// whole wave joins it, so that every range is at least one tile deep. A range is kept at least kMinIterations
// deep and a tile in at most kMaxPiecesPerTile pieces, so that a single long-K tile does not fold hundreds of
// partials serially.
//
// Equal shares assume that every SM runs at one speed, and they do not quite
// (docs/experiments/2026-11-30-sm-speed.md): the slowest SMs then end the kernel. The tail-pieces variant cuts every
// tile of the ragged last wave into p equal K pieces, one block each, and lets no whole wave join them; the hardware
// hands the pieces to SMs as they free up, so a slow SM takes fewer of them.
#pragma once

#include <cstdint>

namespace gemm {

struct StreamKSchedule {
    int64_t dp_tiles;  // tiles [0, dp_tiles) are computed whole, by blocks [0, dp_tiles)
    int64_t sk_iters;  // K iterations of tiles [dp_tiles, tiles), tile by tile, shared out by sk_blocks blocks
    int k_tiles;       // K iterations per tile
    int sk_blocks;     // stream-K block i (grid block dp_tiles + i) has iterations [sk_begin(i), sk_begin(i + 1))
};

// The schedule of `tiles` tiles of k_tiles iterations on resident_blocks block slots, and its grid size.
// tail_pieces = 0: stream-K, the tail's iterations in equal shares over at most one wave of blocks.
// tail_pieces = p > 0: the tail tiles alone, each cut into p equal K pieces (fewer when K has fewer tiles), one
// block per piece; the equal division of sk_iters then falls exactly on those piece boundaries, since
// sk_iters * block / (tail tiles * p) = k_tiles * block / p.
StreamKSchedule plan_stream_k(int64_t tiles, int k_tiles, int resident_blocks, int tail_pieces, int* grid);

}  // namespace gemm
