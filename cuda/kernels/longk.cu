// longk: a long K over a small C, a reduction: C of a few dozen rows and columns, K in the tens of thousands or more.
//
// Technique: such a product reads both operands, each K long, and does 2 x 32 FLOP at most per 4-byte element it
// reads (C of 32 x 32), so HBM bandwidth bounds it, and it has almost no output to share out: the tiled rungs give
// it one or a few tiles, split K to fill the GPU, and waste most of each tile on rows and columns C does not have.
// Here a block's tile is C itself (up to 32 x 32, the least of 8, 16 and 32 that covers C's larger side; larger C
// in several tiles) and the GPU is filled along K alone: every SM takes a K slice of each tile, so each operand is
// read once. Nothing a warp reads is read by another warp, so no warp waits for another: each of the 8 warps of a
// block takes its own eighth of every piece of K (16 k of every 128 at 32 x 32) and streams it through a ring of its
// own, by 16-byte cp.async copies that it issues and waits for itself (a warp barrier, no block barrier). Each
// operand stays as it is stored (k along the stored rows, or across them), so that every copy is a whole chunk and
// any op combination costs the same. A lane holds 4 x 8 sums (at 32 x 32) and reads its 4 rows of op(A) and 8
// columns of op(B) at 4 consecutive k as 16-byte vectors, 12 shared loads per 128 FMAs. At the end the warps' sums
// meet in shared memory in warp order, and the slices' sums through split-K's workspace in slice order
// (core/schedule/split_k.h): the blocks of the same launch, cooperative, add them up once all are written, so no
// reduction kernel follows. The same inputs on the same GPU give the same bits.
//
// Changes vs splitk (pipelined 64x64 tiles over K slices): the tile is fitted to C rather than C cut into a
// fixed tile, the warps divide K instead of the tile, each warp pipelines its own copies, the operands stay as stored
// in shared memory (no element-wise transposing copies), and the slice count fills every SM once. Unaligned
// operands take 4-byte copies.
//
// Parameters: 256 threads (8 warps), one block per SM; tiles of 8, 16 or 32 (a lane's 1 x 2, 2 x 4 or 4 x 8 sums);
// a ring of 5 stages per warp, each 4 KB of operands (64, 32 or 16 k); slices at least 1024 k deep.
#include "kernels/longk.h"

#include "core/configs/pipelined.h"
#include "core/copy/cp_async.cuh"
#include "core/device.h"
#include "core/epilogue/slice_sum.cuh"
#include "core/launch.h"
#include "core/pipeline/cp_async_ring.cuh"
#include "core/schedule/split_k.h"

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kStages = 5;
// The k of one stage of a warp's ring for a tile of `side` (every stage 4 KB of operands, whatever the tile), and a
// block's k per ring turn, the unit of its K slice.
__host__ __device__ constexpr int warp_k(int side) { return 16 * (32 / side); }
__host__ __device__ constexpr int block_k(int side) { return kWarps * warp_k(side); }
constexpr int kMinSliceK = 1024;
// A warp's lanes over its tile: 8 along C's rows by 4 along its columns.
constexpr int kLanesM = 8, kLanesN = 4;

// One operand's part of a warp's ring stage: R rows of op(X) (C's rows for A, its columns for B) by kK k, laid
// out as the operand is stored, so that every copy is a 16-byte chunk of a stored row. kKAlongRows (A for op N, B
// for op T): x[r][k], rows padded to kK + 4 floats, so that the lanes' rows at one k fall on different banks;
// otherwise x[k][r]. A lane (index < kLanes along R) holds kPerLane of the R rows. Rows past op(X)'s are never
// copied: the ring starts zeroed.
template <class Operand, bool kKAlongRows, int R, int kK, int kLanes>
struct WarpStage {
    static constexpr int kPerLane = R / kLanes;
    static constexpr int kStride = kKAlongRows ? kK + 4 : R;
    static constexpr int kLines = kKAlongRows ? R : kK;
    static constexpr int kFloats = kLines * kStride;
    static constexpr int kChunksPerLine = (kKAlongRows ? kK : R) / 4;
    static constexpr int kLinesPerPass = 32 / kChunksPerLine;  // a pass: one chunk per lane
    static constexpr int kPasses = kLines / kLinesPerPass;
    static constexpr int kWidth = kPerLane < 4 ? kPerLane : 4;  // x[k][r]: a lane's rows in vectors of kWidth
    static_assert(R % kLanes == 0 && R % 4 == 0 && kLines % kLinesPerPass == 0, "whole chunks, passes and vectors");

    // A lane's copies: chunk q of line `line` in each pass (lines kLinesPerPass apart), from op(X)'s tile at row r0.
    struct Copy {
        __device__ Copy(const GemmMatrices& g, int r0, int lane)
            : line(lane / kChunksPerLine),
              q(4 * (lane % kChunksPerLine)),
              x(Operand::matrix(g)),
              ld(Operand::ld(g)),
              rows(Operand::extent(g) - r0),
              src(kKAlongRows ? x + (int64_t(r0) + line) * ld + q : x + int64_t(line) * ld + r0 + q),
              pass_stride(int64_t(kLinesPerPass) * ld),
              tile_inside(rows >= R) {}

        // Copies the stage of K from k0 into `stage`: 16-byte chunks where kVector and the stage lies inside op(X),
        // else chunk by chunk: whole chunks where they can, else element by element, zeros past K, nothing past
        // op(X)'s rows.
        template <bool kVector>
        __device__ void issue(int K, int64_t k0, float* stage) const {
            const float* const from = src + (kKAlongRows ? k0 : k0 * ld);
            const uint32_t to = gemm::smem_addr(stage + line * kStride + q);
            if (kVector && tile_inside && k0 + kK <= K) {
#pragma unroll
                for (int p = 0; p < kPasses; ++p)
                    gemm::cp_async16(to + 4 * p * kLinesPerPass * kStride, from + p * pass_stride);
                return;
            }
            const int64_t ks = K - k0;
#pragma unroll
            for (int p = 0; p < kPasses; ++p) {
                const int l = line + p * kLinesPerPass;
                // Elements of the chunk inside op(X)'s rows, and inside K.
                const int64_t in_rows = kKAlongRows ? (l < rows ? 4 : 0) : rows - q;
                const int64_t in_k = kKAlongRows ? ks - q : (l < ks ? 4 : 0);
                const float* const f = from + p * pass_stride;
                const uint32_t t = to + 4 * p * kLinesPerPass * kStride;
                if (kVector && in_rows >= 4 && in_k >= 4) {
                    gemm::cp_async16(t, f);
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                        if (j < in_rows) gemm::cp_async4_zfill(t + 4 * j, j < in_k ? f + j : x, j < in_k);
                }
            }
        }

        const int line, q;
        const float* const x;
        const int64_t ld;
        const int rows;
        const float* const src;
        const int64_t pass_stride;
        const bool tile_inside;
    };

    // The row of the tile that value e of lane `index` holds.
    __device__ static int row(int index, int e) {
        if constexpr (kKAlongRows) return index + kLanes * e;
        return (e / kWidth) * (kLanes * kWidth) + kWidth * index + e % kWidth;
    }

    // Lane `index`'s values at k .. k + 3 of `stage`: v[e][kk] = op(X)(row(index, e), k + kk).
    __device__ static void load(const float* stage, int index, int k, float (&v)[kPerLane][4]) {
        if constexpr (kKAlongRows) {
#pragma unroll
            for (int e = 0; e < kPerLane; ++e) {
                const float4 t = *reinterpret_cast<const float4*>(stage + row(index, e) * kStride + k);
                v[e][0] = t.x, v[e][1] = t.y, v[e][2] = t.z, v[e][3] = t.w;
            }
        } else {
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                for (int e0 = 0; e0 < kPerLane; e0 += kWidth) {
                    const float* const p = stage + (k + kk) * kStride + row(index, e0);
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

template <int kSide, class OpA, class OpB>
struct Parts {
    static constexpr int kWarpK = warp_k(kSide), kBlockK = block_k(kSide);
    using A = WarpStage<OperandA, !OpA::kT, kSide, kWarpK, kLanesM>;
    using B = WarpStage<OperandB, OpB::kT, kSide, kWarpK, kLanesN>;
    static constexpr int kStageFloats = A::kFloats + B::kFloats;
    static constexpr int kRingFloats = kStages * kStageFloats;  // one warp's
    static constexpr int kSmemBytes = kWarps * kRingFloats * int(sizeof(float));
    static_assert(kStageFloats % 4 == 0, "every stage 16-byte aligned");
    static_assert(kWarps * kSide * kSide <= kWarps * kRingFloats, "the warps' sums fit in the rings");
    static_assert(gemm::fits_shared_memory(kSmemBytes, 1), "shared memory over the limits");
};

// Block (x, 0, z) sums tile x of C (row-major over C's tiles) over slice z of K, in units of block_k, and writes it
// to slice z of `out`; where `slices` names a C (a cooperative launch), the blocks then add the slices up into it. Warp
// w takes the w-th warp_k of every unit, through a ring of its own.
template <int kSide, class OpA, class OpB, bool kVector>
__global__ void __launch_bounds__(kThreads, 1) longk_kernel(const GemmMatrices g, const int units_per_slice,
                                                            const gemm::SliceOutput out, const gemm::SliceSum slices) {
    using P = Parts<kSide, OpA, OpB>;
    using A = typename P::A;
    using B = typename P::B;
    extern __shared__ __align__(16) float smem[];
    const int tiles_n = int(tiles_of(g.N, kSide));
    const int m0 = int(blockIdx.x) / tiles_n * kSide, n0 = int(blockIdx.x) % tiles_n * kSide;
    const int units = (g.K - 1) / P::kBlockK + 1;
    const int64_t slice0 = int64_t(blockIdx.z) * units_per_slice;
    const int u_begin = int(min(slice0, int64_t(units)));
    const int u_end = int(min(slice0 + units_per_slice, int64_t(units)));

    const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
    float* const ring = smem + warp * P::kRingFloats;
#pragma unroll 4
    for (int i = lane; i < P::kRingFloats / 4; i += 32) reinterpret_cast<float4*>(ring)[i] = make_float4(0, 0, 0, 0);
    __syncwarp();
    const typename A::Copy a_copy(g, m0, lane);
    const typename B::Copy b_copy(g, n0, lane);
    const auto load = [&](int u, int stage) {
        const int64_t k0 = int64_t(u) * P::kBlockK + warp * P::kWarpK;
        float* const s = ring + stage * P::kStageFloats;
        a_copy.template issue<kVector>(g.K, k0, s);
        b_copy.template issue<kVector>(g.K, k0, s + A::kFloats);
    };

    const int im = lane / kLanesN, in = lane % kLanesN;
    float sum[A::kPerLane][B::kPerLane] = {};
    gemm::CpAsyncRing<kStages, gemm::WarpSync> pipe(u_begin, u_end);
    pipe.fill(load);
    for (int u = u_begin; u < u_end; ++u) {
        pipe.refill(load);
        const float* const s = ring + pipe.read_stage() * P::kStageFloats;
#pragma unroll
        for (int k = 0; k < P::kWarpK; k += 4) {
            float a[A::kPerLane][4], b[B::kPerLane][4];
            A::load(s, im, k, a);
            B::load(s + A::kFloats, in, k, b);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                for (int i = 0; i < A::kPerLane; ++i)
#pragma unroll
                    for (int j = 0; j < B::kPerLane; ++j) sum[i][j] = fmaf(a[i][kk], b[j][kk], sum[i][j]);
        }
        pipe.advance();
    }

    // The warps' sums meet in shared memory once every warp is done with its ring, added in warp order.
    __syncthreads();
    float* const partial = smem;  // [kWarps][kSide][kSide]
#pragma unroll
    for (int i = 0; i < A::kPerLane; ++i)
#pragma unroll
        for (int j = 0; j < B::kPerLane; ++j)
            partial[(warp * kSide + A::row(im, i)) * kSide + B::row(in, j)] = sum[i][j];
    __syncthreads();
    float* const slice = out.base + int64_t(blockIdx.z) * out.slice_stride;
    for (int e = int(threadIdx.x); e < kSide * kSide; e += kThreads) {
        const int r = e / kSide, c = e % kSide;
        if (m0 + r >= g.M || n0 + c >= g.N) continue;
        float total = partial[e];
#pragma unroll
        for (int w = 1; w < kWarps; ++w) total += partial[w * kSide * kSide + e];
        slice[int64_t(m0 + r) * out.ld + n0 + c] = total;
    }
    gemm::sum_slices_in_grid<kThreads>(slices);
}

// The least tile side that covers C's larger side, or the largest.
int tile_side(const GemmArgs& g) {
    const int side = g.M > g.N ? g.M : g.N;
    return side <= 8 ? 8 : side <= 16 ? 16 : longk::kMaxTileSide;
}

// split-K's slice launcher: slices of units_per_slice units of block_k, added up in the launch where it can.
mm_status launch_slices(const GemmArgs& g, int splits, int units_per_slice, gemm::SliceOutput out,
                        const gemm::SliceSum& sum, bool* summed, cudaStream_t stream) {
    const bool vector = rows_aligned16(g.A, g.lda) && rows_aligned16(g.B, g.ldb);
    const auto with_side = [&](auto side) {
        constexpr int kSide = decltype(side)::value;
        const dim3 grid(unsigned(tiles_of(g.M, kSide) * tiles_of(g.N, kSide)), 1, unsigned(splits));
        return with_ops(g, [&](auto a, auto b) {
            return with_alignment(vector, [&](auto aligned) {
                using P = Parts<kSide, decltype(a), decltype(b)>;
                constexpr auto kernel = &longk_kernel<kSide, decltype(a), decltype(b), decltype(aligned)::value>;
                MM_TRY(gemm::allow_shared_memory<kernel>(P::kSmemBytes, "longk: shared memory"));
                bool cooperative = false;
                if (sum.C != nullptr) MM_TRY((gemm::runs_at_once<kernel, kThreads, P::kSmemBytes>(grid, &cooperative)));
                *summed = cooperative;
                return gemm::launch_cooperative(cooperative, kernel, grid, kThreads, P::kSmemBytes, stream, "longk",
                                                static_cast<const GemmMatrices&>(g), units_per_slice, out,
                                                cooperative ? sum : gemm::SliceSum{});
            });
        });
    };
    switch (tile_side(g)) {
        case 8: return with_side(std::integral_constant<int, 8>{});
        case 16: return with_side(std::integral_constant<int, 16>{});
        default: return with_side(std::integral_constant<int, longk::kMaxTileSide>{});
    }
}

// K slices: one block per SM over C's tiles, none shallower than kMinSliceK.
mm_status launch_planned(const GemmArgs& g, int /*splits*/, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int side = tile_side(g);
    const int64_t tiles = int64_t(tiles_of(g.M, side)) * tiles_of(g.N, side);
    const int splits =
        gemm::choose_splits(tiles, g.K, sms, 1, {.waves = 1, .min_slice_k = kMinSliceK, .max_splits = 65535});
    return gemm::run_split_k_summed_in_grid(g, splits, block_k(side), &launch_slices, stream);
}

bool takes_unsplit(const GemmArgs&, int splits) { return splits == 1; }

}  // namespace

namespace longk {

constinit const gemm::ConfigDesc kPlanned{.name = "longk",
                                          .block = {kMaxTileSide, kMaxTileSide, block_k(kMaxTileSide)},
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
