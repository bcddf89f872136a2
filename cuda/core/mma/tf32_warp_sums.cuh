// A warp's sums of a whole square tile of C on TF32 tensor cores, mma.sync m16n8k8 (core/mma/tf32_mma_sync.cuh),
// for the warp_k frame (core/kernel/warp_k_slices.cuh): longk_tf32's arithmetic.
//
// Each value is rounded to TF32 (to nearest) as its fragment leaves the ring stage, which holds it as stored: one
// 4-byte shared load per value, where the WarpStage strides put the lanes of one fragment read on 32 distinct banks
// (k along the stored rows: rows kK + 4 floats apart, bank g (kK + 4) + t; across them: rows R + 8 apart, 8t + g).
// The MMAs accumulate into the warp's totals; a warp's chain is an eighth of its block's K slice (the launcher
// keeps it within gemm::kTf32MaxChainK).
//
// Tiles: 16, 32 or 64 square, a warp's (kSide / 16) x (kSide / 8) m16n8 blocks, kSide² / 32 totals per lane (128
// at 64); rings of 5 stages at 32, 4 at 16 and 64, whose padded stages are larger.
#pragma once

#include "core/kernel/warp_k_slices.cuh"
#include "core/mma/tf32_mma_sync.cuh"

namespace gemm::warp_k {

template <int kTileSide, class OpA, class OpB>
struct Tf32Math {
    static constexpr int kSide = kTileSide;
    static constexpr int kStages = kSide == 32 ? kDefaultStages : 4;
    static constexpr int kWarpK = warp_k(kSide);
    static constexpr int kMTiles = kSide / 16, kNTiles = kSide / 8;
    using A = WarpStage<OperandA, !OpA::kT, kSide, kWarpK, 8>;
    using B = WarpStage<OperandB, OpB::kT, kSide, kWarpK, 8>;
    static_assert(kSide % 16 == 0 && kWarpK % 8 == 0, "whole m16n8k8 blocks");

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

        // The warp's sums into its kSide x kSide block of shared memory.
        __device__ void store(float* tile) const {
#pragma unroll
            for (int i = 0; i < kMTiles; ++i)
#pragma unroll
                for (int j = 0; j < kNTiles; ++j)
#pragma unroll
                    for (int e = 0; e < 4; ++e)
                        tile[(16 * i + g_ + 8 * (e / 2)) * kSide + 8 * j + 2 * t_ + e % 2] = total_[i][j][e];
        }

      private:
        int g_, t_;
        float total_[kMTiles][kNTiles][4] = {};
    };
};

}  // namespace gemm::warp_k
