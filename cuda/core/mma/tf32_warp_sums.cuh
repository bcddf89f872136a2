// A warp's sums of its part of a tile of C on TF32 tensor cores, mma.sync m16n8k8 (core/mma/tf32_mma_sync.cuh), for
// the warp_k frame (core/kernel/warp_k_slices.cuh): longk_tf32's arithmetic.
//
// The block shares one ring (BlockRing), whose stage holds the block's piece of K (kPieceBytes of the larger
// operand's tile), copied in whole lines. A warp's part is at most 64 x 64 of the tile: tiles of up to 64 square are one part
// and the 8 warps are 8 groups along k; 128 x 64 and 64 x 128 are two parts, 4 groups; 128 x 128 four parts, 2 groups.
// Each value is rounded to TF32 (to nearest) as its fragment leaves the ring stage, which holds it as stored: one
// 4-byte shared load per value, where the WarpStage strides put the lanes of one fragment read on 32 distinct banks
// (k along the stored rows: rows kK + 4 floats apart, bank g (kK + 4) + t; across them: rows R + 8 apart, 8t + g).
// The MMAs accumulate into the warp's totals; a warp's chain is its group's share of the block's K slice (the
// launcher keeps it within gemm::kTf32MaxChainK).
//
// A part of kPartM x kPartN is (kPartM / 16) x (kPartN / 8) m16n8 blocks, kPartM kPartN / 32 totals per lane (128 at
// 64 x 64).
#pragma once

#include "core/kernel/warp_k_slices.cuh"
#include "core/mma/tf32_mma_sync.cuh"

namespace gemm::warp_k {

template <int kRows, int kCols, class OpA, class OpB>
struct Tf32Math {
    static constexpr int kTileM = kRows, kTileN = kCols;
    static constexpr int kPartM = kTileM < 64 ? kTileM : 64, kPartN = kTileN < 64 ? kTileN : 64;
    static constexpr int kWarpsM = kTileM / kPartM, kWarpsN = kTileN / kPartN, kWarpsK = kWarps / (kWarpsM * kWarpsN);
    static constexpr int kLarger = kTileM > kTileN ? kTileM : kTileN;
    // A block's piece of K: 32 KB of the larger operand's tile from 64 up, where each warp then takes two or more
    // m16n8k8 steps per stage, and 16 KB below, where it takes two or four already; three stages of 32 KB fit.
    static constexpr int kPieceBytes = kLarger >= 64 ? 32768 : 16384;
    static constexpr int kWarpK = kPieceBytes / int(sizeof(float)) / kLarger / kWarpsK;
    static constexpr int kStages = kLarger >= 64 ? 3 : kLarger == 32 ? kDefaultStages : 4;
    static constexpr int kMTiles = kPartM / 16, kNTiles = kPartN / 8;
    using Rings = BlockRing;
    static constexpr int kStageK = Rings::stage_k(kWarpK, kWarpsK);
    using A = WarpStage<OperandA, !OpA::kT, kTileM, kStageK, 8, Rings::kCopiers>;
    using B = WarpStage<OperandB, OpB::kT, kTileN, kStageK, 8, Rings::kCopiers>;
    static_assert(kPartM % 16 == 0 && kPartN % 8 == 0 && kWarpK % 8 == 0, "whole m16n8k8 blocks");

    class Sums {
      public:
        __device__ explicit Sums(int lane) : g_(lane / 4), t_(lane % 4) {}

        __device__ void add(const float* a_stage, const float* b_stage) {
#pragma unroll
            for (int s = 0; s < kWarpK / 8; ++s) {
                uint32_t a[kMTiles][4];
#pragma unroll
                for (int i = 0; i < kMTiles; ++i)
#pragma unroll
                    for (int e = 0; e < 4; ++e)
                        a[i][e] = to_tf32(a_stage[A::at(16 * i + g_ + 8 * (e % 2), 8 * s + t_ + 4 * (e / 2))]);
#pragma unroll
                for (int j = 0; j < kNTiles; ++j) {
                    const uint32_t b[2] = {to_tf32(b_stage[B::at(8 * j + g_, 8 * s + t_)]),
                                           to_tf32(b_stage[B::at(8 * j + g_, 8 * s + t_ + 4)])};
#pragma unroll
                    for (int i = 0; i < kMTiles; ++i) mma_m16n8k8_tf32(total_[i][j], a[i], b);
                }
            }
        }

        // The warp's sums into its part of a tile in shared memory, rows `ld` floats apart.
        __device__ void store(float* tile, int ld) const {
#pragma unroll
            for (int i = 0; i < kMTiles; ++i)
#pragma unroll
                for (int j = 0; j < kNTiles; ++j)
#pragma unroll
                    for (int e = 0; e < 4; ++e)
                        tile[(16 * i + g_ + 8 * (e / 2)) * ld + 8 * j + 2 * t_ + e % 2] = total_[i][j][e];
        }

      private:
        int g_, t_;
        float total_[kMTiles][kNTiles][4] = {};
    };
};

}  // namespace gemm::warp_k
