// A kernel frame for a long K over a small C (device and host): a block's tile is C itself, or a piece of a larger
// C, and the GPU is filled along K alone. Every block takes a K slice of one tile. Its 8 warps are kWarpsK groups
// along k of kWarpsM x kWarpsN warps over the tile: each group takes its own share (kWarpK) of every piece of the
// slice (the block's unit, kBlockKOf), and each warp of a group its part of the tile. Either each warp streams its
// share through a ring of its own, by 16-byte cp.async copies that it issues and waits for itself (a warp barrier,
// no block barrier), so no warp waits for another (WarpRings: one warp per group); or the block shares one ring
// whose stage holds the whole piece, copied in whole lines of the operands, each warp reading its part (BlockRing, a
// block barrier per stage). Each operand stays as it is stored (k along the stored rows, or across them), so that
// every copy is a whole chunk and any op combination costs the same. At the end the groups' sums meet in shared
// memory in group order, and the slices' sums through split-K's workspace in slice order (core/schedule/split_k.h):
// the blocks of the same launch, cooperative, add them up once all are written, so no reduction kernel follows. The
// same inputs on the same GPU give the same bits.
//
// What multiplies is a Math type (longk's Ffma, core/mma/tf32_warp_sums.cuh's Tf32Math): its tile (kTileM x
// kTileN), its warps (kWarpsM, kWarpsN, kWarpsK) and their share kWarpK, its ring's kStages, who shares a ring
// (Rings: WarpRings or BlockRing), its stage layouts A and B (WarpStage below, kK of Rings::stage_k, with the
// padding its reads need), and Sums, a warp's sums of its part, which adds its share of a ring stage (`add`) and
// writes them to shared memory (`store`). A rung is Rung<Math, its name, its Tiles> (core/kernel/warp_k_tiles.h),
// whose run() launches it.
#pragma once

#include "core/copy/cp_async.cuh"
#include "core/device.h"
#include "core/epilogue/slice_sum.cuh"
#include "core/kernel/warp_k_tiles.h"
#include "core/launch.h"
#include "core/pipeline/cp_async_ring.cuh"
#include "core/problem.h"
#include "core/schedule/split_k.h"

namespace gemm::warp_k {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kDefaultStages = 5;  // a warp's ring, where a Math's stages fit five times

// Who shares a ring: each warp its own, which holds the warp's share of every piece of K (WarpRings), or the whole
// block one, which holds the whole piece (BlockRing). kCopiers threads copy each stage and meet at Sync; a stage
// holds stage_k k of a block's piece whose groups take warp_k each.
struct WarpRings {
    static constexpr int kRings = kWarps, kCopiers = 32;
    using Sync = WarpSync;
    static constexpr int stage_k(int warp_k, int /*warps_k*/) { return warp_k; }
};
struct BlockRing {
    static constexpr int kRings = 1, kCopiers = kThreads;
    using Sync = BlockSync;
    static constexpr int stage_k(int warp_k, int warps_k) { return warp_k * warps_k; }
};

// One operand's part of a warp's ring stage: R rows of op(X) (C's rows for A, its columns for B) by kK k, laid
// out as the operand is stored, so that every copy is a 16-byte chunk of a stored row. kKAlongRows (A for op N, B
// for op T): x[r][k], rows padded to kK + 4 floats, so that rows at one k fall on different banks; otherwise
// x[k][r], rows padded to R + kPad floats (what the Math's reads need). Rows past op(X)'s are never copied: the
// ring starts zeroed. kCopiers threads copy a stage (Rings::kCopiers).
template <class Operand, bool kKAlongRows, int R, int kK, int kPad, int kCopiers>
struct WarpStage {
    static constexpr bool kAlongRows = kKAlongRows;
    static constexpr int kStride = kKAlongRows ? kK + 4 : R + kPad;
    static constexpr int kLines = kKAlongRows ? R : kK;
    static constexpr int kFloats = kLines * kStride;
    static constexpr int kChunksPerLine = (kKAlongRows ? kK : R) / 4;
    static constexpr int kLinesPerPass = kCopiers / kChunksPerLine;  // a pass: one chunk per copier
    static constexpr int kPasses = kLines / kLinesPerPass;
    static_assert(R % 4 == 0 && kK % 4 == 0 && kCopiers % kChunksPerLine == 0 && kLines % kLinesPerPass == 0,
                  "whole chunks and passes");

    // The offset of op(X)(r, k) in a stage.
    __device__ static int at(int r, int k) { return kKAlongRows ? r * kStride + k : k * kStride + r; }

    // A copier's copies: chunk q of line `line` in each pass (lines kLinesPerPass apart), from op(X)'s tile at row
    // r0.
    struct Copy {
        __device__ Copy(const GemmMatrices& g, int r0, int copier)
            : line(copier / kChunksPerLine),
              q(4 * (copier % kChunksPerLine)),
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
            const uint32_t to = smem_addr(stage + line * kStride + q);
            if (kVector && tile_inside && k0 + kK <= K) {
#pragma unroll
                for (int p = 0; p < kPasses; ++p)
                    cp_async16(to + 4 * p * kLinesPerPass * kStride, from + p * pass_stride);
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
                    cp_async16(t, f);
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j)
                        if (j < in_rows) cp_async4_zfill(t + 4 * j, j < in_k ? f + j : x, j < in_k);
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
};

// The k of a block's piece of K, the unit of its K slice: every k-group of warps' share of it.
template <class Math>
inline constexpr int kBlockKOf = Math::kWarpsK * Math::kWarpK;

// A Math's rings and shared memory: Math::kStages stages of both operands per ring; the warps' sums of the tile meet
// in the same memory at the end, one tile per k-group of warps.
template <class Math>
struct Ring {
    static constexpr int kStageFloats = Math::A::kFloats + Math::B::kFloats;
    static constexpr int kRingFloats = Math::kStages * kStageFloats;  // one ring's
    static constexpr int kSumFloats = Math::kWarpsK * Math::kTileM * Math::kTileN;
    static constexpr int kFloats = Math::Rings::kRings * kRingFloats;
    static constexpr int kSmemBytes = (kFloats > kSumFloats ? kFloats : kSumFloats) * int(sizeof(float));
    static_assert(kStageFloats % 4 == 0, "every stage 16-byte aligned");
    static_assert(Math::kWarpsM * Math::kWarpsN * Math::kWarpsK == kWarps, "every warp has a part");
    static_assert(Math::Rings::kRings == 1 || Math::kWarpsM * Math::kWarpsN == 1,
                  "warps that share a tile's rows or columns share a ring");
    static_assert(fits_shared_memory(kSmemBytes, 1), "shared memory over the limits");
};

// Block (x, 0, z) sums tile x of C (row-major over C's tiles) over slice z of K, in units of kBlockKOf, and writes
// it to slice z of `out`; where `slices` names a C (a cooperative launch), the blocks then add the slices up into it.
// Warps are kWarpsK groups along k of kWarpsM x kWarpsN warps over the tile: warp w's part is its piece of the tile
// over the (w / (kWarpsM kWarpsN))-th kWarpK of every unit, through a ring of its own or its share of the block's.
template <class Math, bool kVector>
__global__ void __launch_bounds__(kThreads, 1) warp_k_slices_kernel(const GemmMatrices g, const int units_per_slice,
                                                                    const SliceOutput out, const SliceSum slices) {
    constexpr int kTileM = Math::kTileM, kTileN = Math::kTileN, kWarpK = Math::kWarpK;
    constexpr int kBlockK = kBlockKOf<Math>;
    constexpr int kPartM = kTileM / Math::kWarpsM, kPartN = kTileN / Math::kWarpsN;
    using A = typename Math::A;
    using B = typename Math::B;
    using R = Ring<Math>;
    using Rings = typename Math::Rings;
    constexpr bool kShared = Rings::kRings == 1;
    extern __shared__ __align__(16) float smem[];
    const int tiles_n = int(tiles_of(g.N, kTileN));
    const int m0 = int(blockIdx.x) / tiles_n * kTileM, n0 = int(blockIdx.x) % tiles_n * kTileN;
    const int units = (g.K - 1) / kBlockK + 1;
    const int64_t slice0 = int64_t(blockIdx.z) * units_per_slice;
    const int u_begin = int(min(slice0, int64_t(units)));
    const int u_end = int(min(slice0 + units_per_slice, int64_t(units)));

    const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
    constexpr int kTileWarps = Math::kWarpsM * Math::kWarpsN;
    const int wk = warp / kTileWarps, wm = warp % kTileWarps / Math::kWarpsN, wn = warp % Math::kWarpsN;
    const int copier = kShared ? int(threadIdx.x) : lane;
    float* const ring = smem + (kShared ? 0 : warp * R::kRingFloats);
#pragma unroll 4
    for (int i = copier; i < R::kRingFloats / 4; i += Rings::kCopiers)
        reinterpret_cast<float4*>(ring)[i] = make_float4(0, 0, 0, 0);
    Rings::Sync::sync();
    const typename A::Copy a_copy(g, m0, copier);
    const typename B::Copy b_copy(g, n0, copier);
    const auto load = [&](int u, int stage) {
        const int64_t k0 = int64_t(u) * kBlockK + (kShared ? 0 : wk * kWarpK);
        float* const s = ring + stage * R::kStageFloats;
        a_copy.template issue<kVector>(g.K, k0, s);
        b_copy.template issue<kVector>(g.K, k0, s + A::kFloats);
    };

    // Where the warp's part starts in a stage: its rows of op(A), its columns of op(B), its k.
    const int k_in_stage = kShared ? wk * kWarpK : 0;
    const int a_part = A::at(wm * kPartM, k_in_stage), b_part = A::kFloats + B::at(wn * kPartN, k_in_stage);
    typename Math::Sums sums(lane);
    CpAsyncRing<Math::kStages, typename Rings::Sync> pipe(u_begin, u_end);
    pipe.fill(load);
    for (int u = u_begin; u < u_end; ++u) {
        pipe.refill(load);
        const float* const s = ring + pipe.read_stage() * R::kStageFloats;
        sums.add(s + a_part, s + b_part);
        pipe.advance();
    }

    // The k-groups' sums meet in shared memory once every warp is done with the rings, added in group order.
    __syncthreads();
    constexpr int kTileFloats = kTileM * kTileN;
    float* const partial = smem;  // [kWarpsK][kTileM][kTileN]
    sums.store(partial + wk * kTileFloats + wm * kPartM * kTileN + wn * kPartN, kTileN);
    __syncthreads();
    float* const slice = out.base + int64_t(blockIdx.z) * out.slice_stride;
    for (int e = int(threadIdx.x); e < kTileFloats; e += kThreads) {
        const int r = e / kTileN, c = e % kTileN;
        if (m0 + r >= g.M || n0 + c >= g.N) continue;
        float total = partial[e];
#pragma unroll
        for (int w = 1; w < Math::kWarpsK; ++w) total += partial[w * kTileFloats + e];
        slice[int64_t(m0 + r) * out.ld + n0 + c] = total;
    }
    sum_slices_in_grid<kThreads>(slices);
}

// The fewest K slices a rung's arithmetic allows, from K and the chains each slice is summed in (its k-groups).
using LeastSplits = int (*)(int64_t K, int chains_per_slice);

// Calls f(Shape{}) with the shape of `tile` among kShapes.
template <class F, class... kShapes>
mm_status with_tile_shape(TileChoice tile, TileList<kShapes...>, F&& f) {
    bool found = false;
    mm_status status = MM_OK;
    ((found = found || (tile.rows == kShapes::kRows && tile.cols == kShapes::kCols && (status = f(kShapes{}), true))),
     ...);
    return found ? status : mm_fail(MM_ERR_UNAVAILABLE, "warp_k: no kernel for a %d x %d tile", tile.rows, tile.cols);
}

// A rung on this frame: its arithmetic (Math<rows, cols, OpA, OpB>), its name and its tiles (Tiles::Shapes, the
// shapes it compiles, and Tiles::of, the one a C takes: core/kernel/warp_k_tiles.h).
template <template <int, int, class, class> class Math, const char* kName, class Tiles>
struct Rung {
    // C = op(A)·op(B) over slices_for's K slices, or at least what `least_splits` asks, added up in the launch where
    // every block runs at once.
    static mm_status run(const GemmArgs& g, LeastSplits least_splits, cudaStream_t stream) {
        int sms = 0;
        MM_TRY(sm_count(&sms));
        const TileChoice tile = Tiles::of(g, sms);
        return with_tile_shape(tile, typename Tiles::Shapes{}, [&](auto shape) {
            using Shape = decltype(shape);
            using Plan = Math<Shape::kRows, Shape::kCols, OpN, OpN>;  // what every op combination shares
            const int splits = slices_for(tile.tiles(g), g.K, sms);
            const int least = least_splits(g.K, Plan::kWarpsK);
            return run_split_k_summed_in_grid(g, splits > least ? splits : least, kBlockKOf<Plan>,
                                              &launch<Shape::kRows, Shape::kCols>, stream);
        });
    }

  private:
    // split-K's slice launcher for tiles of kM x kN: slices of units_per_slice units of kBlockKOf.
    template <int kM, int kN>
    static mm_status launch(const GemmArgs& g, int splits, int units_per_slice, SliceOutput out, const SliceSum& sum,
                            bool* summed, cudaStream_t stream) {
        const bool vector = rows_aligned16(g.A, g.lda) && rows_aligned16(g.B, g.ldb);
        const dim3 grid(unsigned(tiles_of(g.M, kM) * tiles_of(g.N, kN)), 1, unsigned(splits));
        return with_ops(g, [&](auto a, auto b) {
            return with_alignment(vector, [&](auto aligned) {
                using M = Math<kM, kN, decltype(a), decltype(b)>;
                constexpr int kSmemBytes = Ring<M>::kSmemBytes;
                constexpr auto kernel = &warp_k_slices_kernel<M, decltype(aligned)::value>;
                MM_TRY(allow_shared_memory<kernel>(kSmemBytes, "warp_k_slices: shared memory"));
                bool cooperative = false;
                if (sum.C != nullptr) MM_TRY((runs_at_once<kernel, kThreads, kSmemBytes>(grid, &cooperative)));
                *summed = cooperative;
                return launch_cooperative(cooperative, kernel, grid, kThreads, kSmemBytes, stream, kName,
                                          static_cast<const GemmMatrices&>(g), units_per_slice, out,
                                          cooperative ? sum : SliceSum{});
            });
        });
    }
};

}  // namespace gemm::warp_k
