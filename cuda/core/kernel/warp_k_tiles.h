// The tiles of the warp_k frame (core/kernel/warp_k_slices.cuh), host side: the tile shapes a rung compiles, which
// one a C takes, and the K slices over that many tiles.
#pragma once

#include <cstdint>

#include "core/problem.h"
#include "core/schedule/split_k.h"

namespace gemm::warp_k {

constexpr int kMinSliceK = 1024;

// K slices for `tiles` tiles: one block per SM over C's tiles, none shallower than kMinSliceK.
inline int slices_for(int64_t tiles, int K, int sms) {
    return choose_splits(tiles, K, sms, 1, {.waves = 1, .min_slice_k = kMinSliceK, .max_splits = 65535});
}

// A tile shape a rung compiles: kRows of C's rows by kCols of its columns.
template <int kM, int kN>
struct TileShape {
    static constexpr int kRows = kM, kCols = kN;
};

// The tile shapes a rung compiles.
template <class... kShapes>
struct TileList {};

// The tile a C takes, and how many of them cover it.
struct TileChoice {
    int rows, cols;
    int64_t tiles(const GemmArgs& g) const { return int64_t(tiles_of(g.M, rows)) * tiles_of(g.N, cols); }
};

// Square tiles of the sides given, ascending: the least that covers C's larger side, else the largest.
template <int... kSides>
struct SquareTiles {
    static_assert(sizeof...(kSides) > 0, "at least one side");
    using Shapes = TileList<TileShape<kSides, kSides>...>;

    static TileChoice of(const GemmArgs& g, int /*sms*/) {
        constexpr int kAscending[] = {kSides...};
        const int larger = g.M > g.N ? g.M : g.N;
        for (int side : kAscending)
            if (larger <= side) return {side, side};
        return {kAscending[sizeof...(kSides) - 1], kAscending[sizeof...(kSides) - 1]};
    }
};

}  // namespace gemm::warp_k
