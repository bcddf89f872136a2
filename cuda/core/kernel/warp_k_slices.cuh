// A kernel frame for a long K over a small C (device and host): a block's tile is C itself, or a square piece of a
// larger C, and the GPU is filled along K alone. Every block takes a K slice of one tile; each of its 8 warps takes
// its own share of every piece of that slice (warp_k of every block_k) and streams it through a ring of its own,
// by 16-byte cp.async copies that it issues and waits for itself (a warp barrier, no block barrier), so no warp
// waits for another. Each operand stays as it is stored (k along the stored rows, or across them), so that every
// copy is a whole chunk and any op combination costs the same. At the end the warps' sums meet in shared memory in
// warp order, and the slices' sums through split-K's workspace in slice order (core/schedule/split_k.h): the blocks
// of the same launch, cooperative, add them up once all are written, so no reduction kernel follows. The same
// inputs on the same GPU give the same bits.
//
// What multiplies is a Math type (longk's Ffma, core/mma/tf32_warp_sums.cuh's Tf32Math): its tile side kSide, its
// ring's kStages, its stage layouts A and B (WarpStage below, with the padding its reads need), and Sums, a warp's
// sums of the whole tile, which adds a ring stage (`add`) and writes them to shared memory (`store`). A rung is
// Rung<Math, its name, its TileSides> (core/kernel/warp_k_tiles.h), whose run() launches it.
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
// The k of one stage of a warp's ring for a tile of `side` (every stage 4 KB of operands, whatever the tile), and a
// block's k per ring turn, the unit of its K slice.
__host__ __device__ constexpr int warp_k(int side) { return 512 / side; }
__host__ __device__ constexpr int block_k(int side) { return kWarps * warp_k(side); }
constexpr int kMinSliceK = 1024;

// One operand's part of a warp's ring stage: R rows of op(X) (C's rows for A, its columns for B) by kK k, laid
// out as the operand is stored, so that every copy is a 16-byte chunk of a stored row. kKAlongRows (A for op N, B
// for op T): x[r][k], rows padded to kK + 4 floats, so that rows at one k fall on different banks; otherwise
// x[k][r], rows padded to R + kPad floats (what the Math's reads need). Rows past op(X)'s are never copied: the
// ring starts zeroed.
template <class Operand, bool kKAlongRows, int R, int kK, int kPad>
struct WarpStage {
    static constexpr bool kAlongRows = kKAlongRows;
    static constexpr int kStride = kKAlongRows ? kK + 4 : R + kPad;
    static constexpr int kLines = kKAlongRows ? R : kK;
    static constexpr int kFloats = kLines * kStride;
    static constexpr int kChunksPerLine = (kKAlongRows ? kK : R) / 4;
    static constexpr int kLinesPerPass = 32 / kChunksPerLine;  // a pass: one chunk per lane
    static constexpr int kPasses = kLines / kLinesPerPass;
    static_assert(R % 4 == 0 && kK % 4 == 0 && kLines % kLinesPerPass == 0, "whole chunks and passes");

    // The offset of op(X)(r, k) in a stage.
    __device__ static int at(int r, int k) { return kKAlongRows ? r * kStride + k : k * kStride + r; }

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

// A Math's ring and shared memory: Math::kStages stages of both operands per warp; the warps' sums of the tile meet
// in the same memory at the end.
template <class Math>
struct Ring {
    static constexpr int kStageFloats = Math::A::kFloats + Math::B::kFloats;
    static constexpr int kRingFloats = Math::kStages * kStageFloats;  // one warp's
    static constexpr int kSmemBytes = kWarps * kRingFloats * int(sizeof(float));
    static_assert(kStageFloats % 4 == 0, "every stage 16-byte aligned");
    static_assert(Math::kSide * Math::kSide <= kRingFloats, "the warps' sums fit in the rings");
    static_assert(fits_shared_memory(kSmemBytes, 1), "shared memory over the limits");
};

// Block (x, 0, z) sums tile x of C (row-major over C's tiles) over slice z of K, in units of block_k, and writes it
// to slice z of `out`; where `slices` names a C (a cooperative launch), the blocks then add the slices up into it. Warp
// w takes the w-th warp_k of every unit, through a ring of its own.
template <class Math, bool kVector>
__global__ void __launch_bounds__(kThreads, 1) warp_k_slices_kernel(const GemmMatrices g, const int units_per_slice,
                                                                    const SliceOutput out, const SliceSum slices) {
    constexpr int kSide = Math::kSide, kWarpK = warp_k(kSide), kBlockK = block_k(kSide);
    using A = typename Math::A;
    using B = typename Math::B;
    using R = Ring<Math>;
    extern __shared__ __align__(16) float smem[];
    const int tiles_n = int(tiles_of(g.N, kSide));
    const int m0 = int(blockIdx.x) / tiles_n * kSide, n0 = int(blockIdx.x) % tiles_n * kSide;
    const int units = (g.K - 1) / kBlockK + 1;
    const int64_t slice0 = int64_t(blockIdx.z) * units_per_slice;
    const int u_begin = int(min(slice0, int64_t(units)));
    const int u_end = int(min(slice0 + units_per_slice, int64_t(units)));

    const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
    float* const ring = smem + warp * R::kRingFloats;
#pragma unroll 4
    for (int i = lane; i < R::kRingFloats / 4; i += 32) reinterpret_cast<float4*>(ring)[i] = make_float4(0, 0, 0, 0);
    __syncwarp();
    const typename A::Copy a_copy(g, m0, lane);
    const typename B::Copy b_copy(g, n0, lane);
    const auto load = [&](int u, int stage) {
        const int64_t k0 = int64_t(u) * kBlockK + warp * kWarpK;
        float* const s = ring + stage * R::kStageFloats;
        a_copy.template issue<kVector>(g.K, k0, s);
        b_copy.template issue<kVector>(g.K, k0, s + A::kFloats);
    };

    typename Math::Sums sums(lane);
    CpAsyncRing<Math::kStages, WarpSync> pipe(u_begin, u_end);
    pipe.fill(load);
    for (int u = u_begin; u < u_end; ++u) {
        pipe.refill(load);
        const float* const s = ring + pipe.read_stage() * R::kStageFloats;
        sums.add(s, s + A::kFloats);
        pipe.advance();
    }

    // The warps' sums meet in shared memory once every warp is done with its ring, added in warp order.
    __syncthreads();
    float* const partial = smem;  // [kWarps][kSide][kSide]
    sums.store(partial + warp * kSide * kSide);
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
    sum_slices_in_grid<kThreads>(slices);
}

// K slices for `tiles` tiles: one block per SM over C's tiles, none shallower than kMinSliceK.
inline int slices_for(int64_t tiles, int K, int sms) {
    return choose_splits(tiles, K, sms, 1, {.waves = 1, .min_slice_k = kMinSliceK, .max_splits = 65535});
}

// A rung on this frame: its arithmetic (Math<side, OpA, OpB>), its name and its tile sides (TileSides<...>).
template <template <int, class, class> class Math, const char* kName, class Sides>
struct Rung;

template <template <int, class, class> class Math, const char* kName, int... kSides>
struct Rung<Math, kName, TileSides<kSides...>> {
    using Sides = TileSides<kSides...>;

    // C = op(A)·op(B) over slices_for's K slices, or at least `least_splits` (what the arithmetic's accuracy asks),
    // added up in the launch where every block runs at once.
    static mm_status run(const GemmArgs& g, int least_splits, cudaStream_t stream) {
        int sms = 0;
        MM_TRY(sm_count(&sms));
        const int splits = slices_for(Sides::tiles(g), g.K, sms);
        return run_split_k_summed_in_grid(g, splits > least_splits ? splits : least_splits, block_k(Sides::of(g)),
                                          &launch, stream);
    }

  private:
    // split-K's slice launcher: slices of units_per_slice units of block_k on C's tiles.
    static mm_status launch(const GemmArgs& g, int splits, int units_per_slice, SliceOutput out, const SliceSum& sum,
                            bool* summed, cudaStream_t stream) {
        return launch_side<kSides...>(Sides::of(g), g, splits, units_per_slice, out, sum, summed, stream);
    }

    // The kernel of tile side `side`, one of kSide and kLarger.
    template <int kSide, int... kLarger>
    static mm_status launch_side(int side, const GemmArgs& g, int splits, int units_per_slice, SliceOutput out,
                                 const SliceSum& sum, bool* summed, cudaStream_t stream) {
        if constexpr (sizeof...(kLarger) > 0) {
            if (side != kSide)
                return launch_side<kLarger...>(side, g, splits, units_per_slice, out, sum, summed, stream);
        }
        const bool vector = rows_aligned16(g.A, g.lda) && rows_aligned16(g.B, g.ldb);
        const dim3 grid(unsigned(tiles_of(g.M, kSide) * tiles_of(g.N, kSide)), 1, unsigned(splits));
        return with_ops(g, [&](auto a, auto b) {
            return with_alignment(vector, [&](auto aligned) {
                using M = Math<kSide, decltype(a), decltype(b)>;
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
