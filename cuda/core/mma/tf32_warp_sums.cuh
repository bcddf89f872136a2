// A warp's sums of a whole square tile of C on tensor cores, mma.sync m16n8k8 TF32 (core/mma/tf32_mma_sync.cuh),
// for the warp_k frame (core/kernel/warp_k_slices.cuh): the arithmetic of longk_tf32 and longk_3xtf32, and their
// launcher.
//
// Terms: with kTerms = 1 each value is rounded to TF32 as it leaves shared memory (the TF32 class); with kTerms = 3
// each is split into big + small TF32 parts (split_tf32) and a step is small·big + big·small + big·big, the
// small·small term dropped (fp32 accuracy). Fragments come from the stage as stored, one 4-byte shared load per
// value: the WarpStage strides put the lanes of one fragment read on 32 distinct banks (k along the stored rows:
// rows kK + 4 floats apart, g (kK + 4) + t; across them: rows R + 8 apart, 8t + g).
//
// Promotion: the tensor cores' own fp32 accumulation drops low bits at every step, so each stage's products (a
// warp's warp_k of K, 8 to 32 k) sum into a fresh accumulator that is then added into the warp's fp32 total in the
// CUDA cores, rounded to nearest. Chains inside the tensor cores are thus one stage long whatever K is, which also
// keeps TF32 within its tolerance at any K (no slice limit for accuracy).
//
// Tiles: 16, 32 or 64 square (the least that covers C's larger side, else 64), a warp's (kSide / 16) x (kSide / 8)
// m16n8 blocks, kSide² / 32 totals per lane (128 at 64); rings of 5 stages at 32, 4 at 16 and 64, whose padded
// stages are larger.
#pragma once

#include "core/kernel/warp_k_slices.cuh"
#include "core/mma/tf32_mma_sync.cuh"

namespace gemm::warp_k {

template <int kTerms>
struct Tf32Math {
    static_assert(kTerms == 1 || kTerms == 3, "TF32, or 3xTF32");

    template <int kTileSide, class OpA, class OpB>
    struct Of {
        static constexpr int kSide = kTileSide;
        static constexpr int kStages = kSide == 32 ? kDefaultStages : 4;
        static constexpr int kWarpK = warp_k(kSide);
        static constexpr int kMTiles = kSide / 16, kNTiles = kSide / 8;
        using A = WarpStage<OperandA, !OpA::kT, kSide, kWarpK, 8>;
        using B = WarpStage<OperandB, OpB::kT, kSide, kWarpK, 8>;
        static_assert(kSide % 16 == 0 && kWarpK % 8 == 0, "whole m16n8k8 blocks");

        // A value as the MMAs take it: big (and small, with kTerms = 3).
        struct Parts {
            uint32_t big, small;
        };
        __device__ static Parts parts(float x) {
            if constexpr (kTerms == 1) return {to_tf32(x), 0u};
            const Tf32Split s = split_tf32(x);
            return {s.big, s.small};
        }

        class Sums {
          public:
            __device__ explicit Sums(int lane) : g_(lane / 4), t_(lane % 4) {}

            __device__ void add(const float* a_stage, const float* b_stage) {
                Parts a[kWarpK / 8][kMTiles][4];
#pragma unroll
                for (int s = 0; s < kWarpK / 8; ++s)
#pragma unroll
                    for (int i = 0; i < kMTiles; ++i)
#pragma unroll
                        for (int e = 0; e < 4; ++e)
                            a[s][i][e] = parts(a_stage[A::at(16 * i + g_ + 8 * (e % 2), 8 * s + t_ + 4 * (e / 2))]);
#pragma unroll
                for (int j = 0; j < kNTiles; ++j) {
                    Parts b[kWarpK / 8][2];
#pragma unroll
                    for (int s = 0; s < kWarpK / 8; ++s)
#pragma unroll
                        for (int e = 0; e < 2; ++e) b[s][e] = parts(b_stage[B::at(8 * j + g_, 8 * s + t_ + 4 * e)]);
#pragma unroll
                    for (int i = 0; i < kMTiles; ++i) {
                        float c[4] = {};
#pragma unroll
                        for (int s = 0; s < kWarpK / 8; ++s) multiply(c, a[s][i], b[s]);
#pragma unroll
                        for (int e = 0; e < 4; ++e) total_[i][j][e] += c[e];
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
            // c += a·b on one m16n8 block over one k8 step, the small terms first.
            __device__ static void multiply(float (&c)[4], const Parts (&a)[4], const Parts (&b)[2]) {
                const uint32_t a_big[4] = {a[0].big, a[1].big, a[2].big, a[3].big};
                const uint32_t b_big[2] = {b[0].big, b[1].big};
                if constexpr (kTerms == 3) {
                    const uint32_t a_small[4] = {a[0].small, a[1].small, a[2].small, a[3].small};
                    const uint32_t b_small[2] = {b[0].small, b[1].small};
                    mma_m16n8k8_tf32(c, a_small, b_big);
                    mma_m16n8k8_tf32(c, a_big, b_small);
                }
                mma_m16n8k8_tf32(c, a_big, b_big);
            }

            int g_, t_;
            float total_[kMTiles][kNTiles][4] = {};
        };
    };
};

// The least tile side that covers C's larger side, or the largest.
inline int tf32_tile_side(const GemmArgs& g) {
    const int side = g.M > g.N ? g.M : g.N;
    return side <= 16 ? 16 : side <= 32 ? 32 : 64;
}

template <int kTerms>
mm_status launch_tf32_slices(const GemmArgs& g, int splits, int units_per_slice, SliceOutput out,
                             const SliceSum& sum, bool* summed, cudaStream_t stream) {
    const char* const name = kTerms == 1 ? "longk_tf32" : "longk_3xtf32";
    switch (tf32_tile_side(g)) {
        case 16:
            return launch_slices<Tf32Math<kTerms>::template Of, 16>(g, splits, units_per_slice, out, sum, summed,
                                                                    stream, name);
        case 32:
            return launch_slices<Tf32Math<kTerms>::template Of, 32>(g, splits, units_per_slice, out, sum, summed,
                                                                    stream, name);
        default:
            return launch_slices<Tf32Math<kTerms>::template Of, 64>(g, splits, units_per_slice, out, sum, summed,
                                                                    stream, name);
    }
}

// C = op(A)·op(B) with kTerms TF32 terms per product: K slices, one block per SM over C's tiles.
template <int kTerms>
mm_status launch_tf32_warp_k(const GemmArgs& g, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(sm_count(&sms));
    const int side = tf32_tile_side(g);
    const int splits = slices_for(int64_t(tiles_of(g.M, side)) * tiles_of(g.N, side), g.K, sms);
    return run_split_k_summed_in_grid(g, splits, block_k(side), &launch_tf32_slices<kTerms>, stream);
}

}  // namespace gemm::warp_k
