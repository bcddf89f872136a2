// The square tiles of the warp_k frame (core/kernel/warp_k_slices.cuh), host side: which of a rung's tile sides a C
// takes, for the rung and for the dispatchers that ask how many tiles it would run.
#pragma once

#include <cstdint>

#include "core/problem.h"

namespace gemm::warp_k {

// A rung's tile sides, ascending.
template <int... kSides>
struct TileSides {
    static_assert(sizeof...(kSides) > 0, "at least one side");

    // The least side that covers C's larger side, else the largest.
    static int of(const GemmArgs& g) {
        constexpr int kAscending[] = {kSides...};
        const int larger = g.M > g.N ? g.M : g.N;
        for (int side : kAscending)
            if (larger <= side) return side;
        return kAscending[sizeof...(kSides) - 1];
    }

    // C's tiles of that side.
    static int64_t tiles(const GemmArgs& g) {
        const int side = of(g);
        return int64_t(tiles_of(g.M, side)) * tiles_of(g.N, side);
    }
};

}  // namespace gemm::warp_k
