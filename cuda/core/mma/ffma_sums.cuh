// The order in which an FFMA thread sums its products over K (device): what the mainloop keeps in registers for its
// outputs and how it folds them, as a type an FFMA kernel takes (core/mainloop/cp_async_ffma.cuh).
//   Order::Sum<Warp> sum;        zeroed
//   sum.fma(k, a, b);            the products of the k-th k of the current K tile (k a constant once unrolled)
//   sum.end_tile();              after each K tile
//   sum.result()                 the sums, as Warp::Acc
// The rounding error of a K-term sum grows with the length of the chains of additions it is made of. A loop that
// adds every product to one accumulator makes one chain of K; the orders below cut it, at the price of registers.
#pragma once

#include "core/mma/ffma_warp_tile.cuh"

namespace gemm {

// One accumulator per output, every product added in k order: IEEE fp32 as a loop writes it.
struct SequentialOrder {
    template <class Warp>
    struct Sum {
        typename Warp::Acc acc;
        __device__ __forceinline__ Sum() { Warp::zero(acc); }
        __device__ __forceinline__ void fma(int, const float4 (&a)[Warp::FM], const float4 (&b)[Warp::FN]) {
            Warp::fma(acc, a, b);
        }
        __device__ __forceinline__ void end_tile() {}
        __device__ __forceinline__ const typename Warp::Acc& result() { return acc; }
    };
};

// kWays accumulators per output: the k of a K tile go in runs of kRunK consecutive k, run r to accumulator
// r mod kWays; every kChunkTiles K tiles the accumulators are added pairwise ((0 + 1) + (2 + 3)) into a running
// total and start again from zero. So the chains are kChunkTiles BK / kWays long within a chunk and K / (kChunkTiles
// BK) across chunks, instead of K; and a K of at most kRunK stays one chain of fused multiply-adds, as a loop's
// (splitting it into separately rounded products would add error). kWays + 1 sets of accumulators per thread; with
// kWays = 1 the order is a fold: one accumulator, added into the total every kChunkTiles K tiles, two sets.
template <int kWays, int kRunK, int kChunkTiles>
struct PairwiseChunkOrder {
    static_assert(kWays == 1 || kWays == 2 || kWays == 4, "a fold of 1 accumulator, or pairwise folds of 2 or 4");
    static_assert(kRunK >= 1 && kChunkTiles >= 1);

    template <class Warp>
    struct Sum {
        typename Warp::Acc part[kWays];
        typename Warp::Acc total;
        int tiles = 0;  // K tiles in the parts since the last fold

        __device__ __forceinline__ Sum() {
            Warp::zero(total);
#pragma unroll
            for (int w = 0; w < kWays; ++w) Warp::zero(part[w]);
        }
        __device__ __forceinline__ void fma(int k, const float4 (&a)[Warp::FM], const float4 (&b)[Warp::FN]) {
            Warp::fma(part[k / kRunK % kWays], a, b);
        }
        __device__ __forceinline__ void end_tile() {
            if (++tiles == kChunkTiles) fold();
        }
        __device__ __forceinline__ const typename Warp::Acc& result() {
            if (tiles > 0) fold();
            return total;
        }

      private:
        __device__ __forceinline__ void fold() {
#pragma unroll
            for (int r = 0; r < Warp::kTM; ++r)
#pragma unroll
                for (int c = 0; c < Warp::kTN; ++c) {
                    if constexpr (kWays == 1)
                        total[r][c] += part[0][r][c];
                    else if constexpr (kWays == 2)
                        total[r][c] += part[0][r][c] + part[1][r][c];
                    else
                        total[r][c] += (part[0][r][c] + part[1][r][c]) + (part[2][r][c] + part[3][r][c]);
                }
#pragma unroll
            for (int w = 0; w < kWays; ++w) Warp::zero(part[w]);
            tiles = 0;
        }
    };
};

}  // namespace gemm
