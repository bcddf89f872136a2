// longk: a long K over a small C, a reduction: C of a few dozen rows and columns, K in the tens of thousands or more.
//
// Technique: such a product reads both operands, each K long, and does 2 x 64 FLOP at most per 4-byte element it
// reads (C of 64 x 64), so HBM bandwidth bounds it, and it has almost no output to share out: the tiled rungs give
// it one or a few tiles, split K to fill the GPU, and waste most of each tile on rows and columns C does not have.
// Here a block's tile is C itself (up to 64 x 64, the least of 8, 16, 32 and 64 that covers C's larger side; larger
// C in several tiles) and the GPU is filled along K alone: every SM takes a K slice of each tile, so each operand is
// read once. Up to 32 x 32, nothing a warp reads is read by another warp, so no warp waits for another: each of the
// 8 warps of a block takes its own eighth of every piece of K (16 k of every 128 at 32 x 32) and streams it through
// a ring of its own, by 16-byte cp.async copies that it issues and waits for itself (a warp barrier, no block
// barrier). At 64 x 64 the warps split the tile into four parts of 32 x 32 and K into two halves, and share the
// block's ring, whose stages hold whole lines of both operands (a block barrier per stage). Each operand stays as it
// is stored (k along the stored rows, or across them), so that every copy is a whole chunk and any op combination
// costs the same. A lane holds 4 x 8 sums (in a part of 32 x 32) and reads its 4 rows of op(A) and 8 columns of
// op(B) at 4 consecutive k as 16-byte vectors, 12 shared loads per 128 FMAs. At the end the warps' sums meet in
// shared memory in warp order, and the slices' sums through split-K's workspace in slice order
// (core/schedule/split_k.h): the blocks of the same launch, cooperative, add them up once all are written, so no
// reduction kernel follows. The same inputs on the same GPU give the same bits.
//
// Composition: the frame (the warps' rings, the K slices, the sums in shared memory and across the launch) is
// core/kernel/warp_k_slices.cuh, which longk_tf32 shares; this file's part is the FFMA arithmetic
// (Ffma) and the choice of tile.
//
// Changes vs splitk (pipelined 64x64 tiles over K slices): the tile is fitted to C rather than C cut into a
// fixed tile, the warps divide K instead of the tile (and the tile too at 64 x 64), the warps of a tile of up to
// 32 x 32 pipeline their own copies, the operands stay as stored in shared memory (no element-wise transposing
// copies), and the slice count fills every SM once. Unaligned operands take 4-byte copies.
//
// Parameters: 256 threads (8 warps), one block per SM; tiles of 8, 16, 32 or 64 (a lane's 1 x 2, 2 x 4, 4 x 8 or,
// in each of four parts, 4 x 8 sums); up to 32, a ring of 5 stages per warp, each 4 KB of operands (64, 32 or 16 k);
// at 64, one ring of 4 stages, each 32 KB of operands (64 k, 32 for each half of the warps); slices at least 1024 k
// deep.
#include "kernels/longk.h"

#include <bit>
#include <type_traits>

#include "core/configs/pipelined.h"
#include "core/kernel/warp_k_slices.cuh"

namespace {

using gemm::warp_k::WarpStage;

// A warp's lanes over its tile: 8 along C's rows by 4 along its columns.
constexpr int kLanesM = 8, kLanesN = 4;

// A lane's values of one operand's stage: kPerLane of its R rows, at 4 consecutive k.
template <class Stage, int R, int kLanes>
struct LaneValues {
    static constexpr int kPerLane = R / kLanes;
    static constexpr int kWidth = kPerLane < 4 ? kPerLane : 4;  // x[k][r]: a lane's rows in vectors of kWidth
    static_assert(R % kLanes == 0, "whole rows per lane");

    // The row of the tile that value e of lane `index` holds.
    __device__ static int row(int index, int e) {
        if constexpr (Stage::kAlongRows) return index + kLanes * e;
        return (e / kWidth) * (kLanes * kWidth) + kWidth * index + e % kWidth;
    }

    // Lane `index`'s values at k .. k + 3 of `stage`: v[e][kk] = op(X)(row(index, e), k + kk).
    __device__ static void load(const float* stage, int index, int k, float (&v)[kPerLane][4]) {
        if constexpr (Stage::kAlongRows) {
#pragma unroll
            for (int e = 0; e < kPerLane; ++e) {
                const float4 t = *reinterpret_cast<const float4*>(stage + row(index, e) * Stage::kStride + k);
                v[e][0] = t.x, v[e][1] = t.y, v[e][2] = t.z, v[e][3] = t.w;
            }
        } else {
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                for (int e0 = 0; e0 < kPerLane; e0 += kWidth) {
                    const float* const p = stage + (k + kk) * Stage::kStride + row(index, e0);
                    if constexpr (kWidth == 4) {
                        const float4 t = *reinterpret_cast<const float4*>(p);
                        v[e0][kk] = t.x, v[e0 + 1][kk] = t.y, v[e0 + 2][kk] = t.z, v[e0 + 3][kk] = t.w;
                    } else if constexpr (kWidth == 2) {
                        const float2 t = *reinterpret_cast<const float2*>(p);
                        v[e0][kk] = t.x, v[e0 + 1][kk] = t.y;
                    } else {
                        v[e0][kk] = *p;
                    }
                }
        }
    }
};

// FFMA over a tile of kRows x kCols. The warps split the tile into parts of at most kMaxPart x kMaxPart and K into
// the rest: a tile of up to 32 x 32 is every warp's whole part, each warp streaming its share of K through a ring of
// its own (4 KB of operands per stage); a larger tile is split among the warps, which then share the block's ring,
// whose stage holds kBlockStageFloats floats or fewer of the block's piece of K in whole lines of both operands. A lane
// holds (kPartM / 8) x (kPartN / 4) sums (4 x 8 in a part of 32 x 32) and reads its rows of op(A) and columns of
// op(B) at 4 consecutive k as 16-byte vectors, 12 shared loads per 128 FMAs in a part of 32 x 32.
constexpr int kMaxPart = 32;
constexpr int kBlockStageFloats = 8192;

template <int kRows, int kCols, class OpA, class OpB>
struct Ffma {
    static constexpr int kTileM = kRows, kTileN = kCols;
    static constexpr int kPartM = kRows < kMaxPart ? kRows : kMaxPart, kPartN = kCols < kMaxPart ? kCols : kMaxPart;
    static constexpr int kWarpsM = kTileM / kPartM, kWarpsN = kTileN / kPartN;
    static constexpr int kWarpsK = gemm::warp_k::kWarps / (kWarpsM * kWarpsN);
    static constexpr bool kOwnRings = kWarpsM * kWarpsN == 1;
    static_assert(kWarpsK >= 1 && kWarpsM * kWarpsN * kWarpsK == gemm::warp_k::kWarps, "every warp a whole part");
    // A warp's share of every piece of K: 4 KB of operands per stage of its own ring, or its group's share of the
    // shared ring's stage (a power of two of k, so that the stage's lines are whole chunks of every copier pass).
    static constexpr int kSharedStageK = int(std::bit_floor(unsigned(kBlockStageFloats / (kRows + kCols))));
    static constexpr int kWarpK = kOwnRings ? 1024 / (kRows + kCols) : kSharedStageK / kWarpsK;
    static constexpr int kStages = kOwnRings ? gemm::warp_k::kDefaultStages : 4;
    using Rings = std::conditional_t<kOwnRings, gemm::warp_k::WarpRings, gemm::warp_k::BlockRing>;
    static constexpr int kStageK = Rings::stage_k(kWarpK, kWarpsK);
    using A = WarpStage<OperandA, !OpA::kT, kTileM, kStageK, 0, Rings::kCopiers>;
    using B = WarpStage<OperandB, OpB::kT, kTileN, kStageK, 0, Rings::kCopiers>;
    using AValues = LaneValues<A, kPartM, kLanesM>;
    using BValues = LaneValues<B, kPartN, kLanesN>;
    static_assert(kWarpK % 4 == 0, "a lane reads 4 k at a time");

    class Sums {
      public:
        __device__ explicit Sums(int lane) : im_(lane / kLanesN), in_(lane % kLanesN) {}

        __device__ void add(const float* a_stage, const float* b_stage) {
#pragma unroll
            for (int k = 0; k < kWarpK; k += 4) {
                float a[AValues::kPerLane][4], b[BValues::kPerLane][4];
                AValues::load(a_stage, im_, k, a);
                BValues::load(b_stage, in_, k, b);
#pragma unroll
                for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                    for (int i = 0; i < AValues::kPerLane; ++i)
#pragma unroll
                        for (int j = 0; j < BValues::kPerLane; ++j) sum_[i][j] = fmaf(a[i][kk], b[j][kk], sum_[i][j]);
            }
        }

        // The warp's sums into its tile in shared memory, rows `ld` floats apart.
        __device__ void store(float* tile, int ld) const {
#pragma unroll
            for (int i = 0; i < AValues::kPerLane; ++i)
#pragma unroll
                for (int j = 0; j < BValues::kPerLane; ++j)
                    tile[AValues::row(im_, i) * ld + BValues::row(in_, j)] = sum_[i][j];
        }

      private:
        int im_, in_;
        float sum_[AValues::kPerLane][BValues::kPerLane] = {};
    };
};

constexpr char kName[] = "longk";
// Square tiles of 8 to kMaxTileSide, the least that covers C's larger side, else the largest.
using Longk = gemm::warp_k::Rung<Ffma, kName, gemm::warp_k::SquareTiles<8, 16, 32, longk::kMaxTileSide>>;

// K slices: one block per SM over C's tiles, none shallower than gemm::warp_k::kMinSliceK.
mm_status launch_planned(const GemmArgs& g, int /*splits*/, cudaStream_t stream) {
    return Longk::run(g, [](int64_t, int) { return 1; }, stream);
}

bool takes_unsplit(const GemmArgs&, int splits) { return splits == 1; }

constexpr int kLargestBlockK = gemm::warp_k::kBlockKOf<Ffma<longk::kMaxTileSide, longk::kMaxTileSide, OpN, OpN>>;

}  // namespace

namespace longk {

constinit const gemm::ConfigDesc kPlanned{.name = "longk",
                                          .block = {kMaxTileSide, kMaxTileSide, kLargestBlockK},
                                          .blocks_per_sm = 1,
                                          .splits_k = false,
                                          .can_run = &takes_unsplit,
                                          .launch = &launch_planned,
                                          .fallback = &pipelined::k64x64x16,
                                          .reads_op_t_b = true,
                                          .streams = true};

}  // namespace longk

// Registry entry point.
mm_status launch_longk(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(longk::kPlanned, g, 1, stream);
}
