// The split tail of a persistent schedule (host): the tiles of the whole waves stay whole, the ragged last wave's
// tiles go in K pieces that every block shares, and a reduction pass sums the pieces into C (the tail's side of what
// schedule/split_k.h does for every tile when the tiles do not fill the GPU).
#pragma once

#include "core/device_buffer.h"
#include "core/epilogue/tail_reduce.h"
#include "core/schedule/persistent_tiles.cuh"

namespace gemm {

// s (one K slice) with the tiles of its ragged last wave on `blocks` blocks cut into K pieces, where that shortens
// the kernel by the model below; else s unchanged. The whole waves run first, then the pieces, each block taking
// every blocks-th unit. The model counts K tiles on the busiest block: the ragged wave costs ktiles (plus a tile's
// fixed cost, kPieceCostKTiles); in p pieces of ceil(ktiles / p), ceil(tail * p / blocks) of them, each with that
// fixed cost. Pieces stay at least min_piece_ktiles deep and at most kMaxTailSplits per tile.
inline PersistentSchedule split_tail(PersistentSchedule s, int blocks, int min_piece_ktiles) {
    constexpr int kPieceCostKTiles = 2, kMaxTailSplits = 32;
    const int tail = s.tiles() % blocks;
    if (s.splits() > 1 || s.tiles() < blocks || tail == 0) return s;
    int64_t best_cost = s.ktiles + kPieceCostKTiles;
    for (int p = 2; p <= kMaxTailSplits; ++p) {
        const int depth = (s.ktiles - 1) / p + 1;
        if (depth < min_piece_ktiles) break;
        const int pieces = (s.ktiles - 1) / depth + 1;  // none empty
        const int64_t rounds = (int64_t(tail) * pieces - 1) / blocks + 1;
        const int64_t cost = rounds * (depth + kPieceCostKTiles);
        if (cost < best_cost) {
            best_cost = cost;
            s.tail_splits = pieces;
            s.tail_ktiles = depth;
        }
    }
    if (s.tail_splits > 1) s.dp_tiles = s.tiles() - tail;
    return s;
}

// A persistent launch over g's whole tiles of `tile` (one K slice) into C, its ragged last wave in K pieces at least
// min_piece_ktiles deep where split_tail finds that shorter: calls launch(aligned, schedule, blocks, pieces), with
// aligned a std::bool_constant (whether C's rows take vector stores) and pieces the workspace the kernel writes the
// tail's pieces to (nullptr when the tail is not split), then sums the pieces into C. transposed: g is C's
// transpose (its C and ldc C's own), and the kernel writes each piece as C's tile (launch_tail_reduce).
template <class Launch>
mm_status launch_persistent_split_tail(const GemmArgs& g, BlockShape tile, int min_piece_ktiles, cudaStream_t stream,
                                       Launch&& launch, bool transposed = false) {
    PersistentSchedule s = persistent_schedule(g, tile.m, tile.n, tile.k, int(tiles_of(g.K, tile.k)));
    int blocks = 0;
    MM_TRY(persistent_blocks(s, &blocks));
    s = split_tail(s, blocks, min_piece_ktiles);
    DeviceBuffer pieces(stream, DeviceBuffer::Pool::kWorkspace);
    if (s.tail_splits > 1)
        MM_TRY(pieces.allocate(sizeof(float) * size_t(s.tail_tiles()) * size_t(s.tail_splits) * size_t(tile.m * tile.n),
                               "the pieces of the last wave's tiles"));
    MM_TRY(with_alignment(rows_aligned16(g.C, g.ldc),
                          [&](auto aligned) { return launch(aligned, s, blocks, pieces.data()); }));
    return s.tail_splits > 1 ? launch_tail_reduce(pieces.data(), s, tile.m, tile.n, g.C, g.ldc, stream, transposed)
                             : MM_OK;
}

}  // namespace gemm
