// skinny: products with a small side (at most 16 rows of C, or at most 16 columns): a vector times a matrix, a
// decode-sized batch against a weight matrix, a tall panel times a few columns.
//
// Technique: such a product reads the large operand once and does at most 32 FLOP per 4-byte element of it, so
// HBM bandwidth bounds it, not arithmetic. The tiled rungs waste it: their 64- to 256-row tiles are mostly empty,
// and the few tiles leave most SMs idle. Here every SM streams its own part of the large operand, each element
// read once with a 16-byte load that bypasses L1, several loads in flight per thread, and the small operand, read
// by every block, stays in the caches.
//
// The problem as this kernel sees it: C's small side S and large side L, C(s, l) = sum_k Y(s, k) X(k, l), with X
// the large operand (K x L) and Y the small one (S x K). For M <= N, Y = op(A) and X = op(B); otherwise the
// kernel computes C's transpose (Y = op(B)^T, X = op(A)^T) and writes it transposed. X is stored with its rows
// along L (XRows::kAlongL: B as stored for op_b = N) or along K (kAlongK: B for op_b = T, the weight layout of
// x @ W^T; A for op_a = N); every op combination is read as stored.
//
// The work: a thread holds S x 4 sums, for 4 consecutive l of X along L (kAlongL) or 4 rows of X along K
// (kAlongK), and takes 4 consecutive k per step: 4 float4 loads of X and S x 4 values of Y, 16 S FMAs. A warp's
// 32 lanes are `lane_quads` (WLQ) l-quads by 32 / WLQ k-quads, so that its loads are whole row pieces: WLQ x 16
// bytes of 4 rows of X (kAlongL), or 512 bytes of one row (kAlongK, WLQ = 1). A block's 8 warps are
// `row_groups` along L by 8 / row_groups along K. The launcher widens the block along K until the blocks cover
// about one wave of the GPU, and cuts K into slices (split-K, core/schedule/split_k.h) only where the large side
// alone cannot fill it. Within a block the partial sums meet in registers (lanes of one l-quad: a shuffle
// butterfly) and in shared memory (warps of one row group), always in the same order, so the same inputs give
// the same bits.
//
// Changes vs the tiled rungs: no shared-memory tiles and no tile of C; the work is cut along L and K instead of
// M and N, the small operand is read from the caches, and one kernel takes every op combination.
//
// Parameters: 256 threads; kS = 4 or 16 sums per l per thread (S up to 4 or 16); besides the step in use, 2 or 1
// more steps of X in flight per thread (kS = 4 or 16); 3 or 2 blocks per SM.
#include "kernels/skinny.h"

#include <type_traits>

#include "core/copy/guarded_load.cuh"
#include "core/device.h"
#include "core/launch.h"
#include "core/schedule/split_k.h"
#include "core/unroll.cuh"
#include "kernels/pipelined.h"

namespace {

constexpr int kThreads = 256, kWarps = kThreads / 32;

// How the large operand X (K x L) is stored: X(k, l) at k * ldx + l (rows along L) or at l * ldx + k.
enum class XRows { kAlongL, kAlongK };
// How the small operand Y (S x K) is stored: Y(s, k) at s * ldy + k (rows along K) or at k * ldy + s.
enum class YRows { kAlongK, kAlongS };

// One launch: the product as the kernel sees it, where its slices go, and the work's shape.
struct SkinnyView {
    int S, L, K;
    const float* X;
    int64_t ldx;
    const float* Y;
    int64_t ldy;
    float* out;  // slice z's C(s, l) at out + z * slice_stride + s * out_s + l * out_l
    int64_t out_s, out_l, slice_stride;
    int k_per_slice;  // a multiple of 4
    int lane_quads;   // WLQ: l-quads of a warp (a power of two up to 32; 1 for kAlongK)
    int row_groups;   // warps of a block along L (1, 2, 4 or 8)
};

template <int kS>
struct SkinnyShape {
    // Steps of X loaded ahead per thread (the one in use included): the element-wise loads of unaligned rows need
    // the registers of a second.
    __host__ __device__ static constexpr int depth(bool aligned) { return aligned && kS <= 4 ? 2 : 1; }
    static_assert(kS % 4 == 0, "the small side comes in quads");
    static constexpr int kMinBlocksPerSm = kS <= 4 ? 3 : 2;  // the occupancy __launch_bounds__ promises
};

// The 4 x 4 piece of X a thread takes per step: v[j] = X(k + j, l .. l + 3) along L, v[c] = X(k .. k + 3, l + c)
// along K.
struct XQuad {
    float4 v[4];
};

template <XRows kX>
__device__ __forceinline__ float x_at(const XQuad& x, int j, int c) {
    return kX == XRows::kAlongL ? gemm::f4_get(x.v[j], c) : gemm::f4_get(x.v[c], j);
}

// The thread's piece of X at k (guarded: past k_end or L it reads zeros, and past k_end nothing at all).
template <XRows kX, bool kAligned>
__device__ __forceinline__ void load_x(XQuad& x, const SkinnyView& v, int64_t k, int64_t l, int k_end) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        if constexpr (kX == XRows::kAlongL) {
            x.v[i] = k + i < k_end && l < v.L ? gemm::guarded_row4<gemm::StreamedLoad>(v.X + (k + i) * v.ldx, int(l), v.L,
                                                                             kAligned)
                                   : make_float4(0.f, 0.f, 0.f, 0.f);
        } else {
            x.v[i] = k < k_end && l + i < v.L
                         ? gemm::guarded_row4<gemm::StreamedLoad>(v.X + (l + i) * v.ldx, int(k), k_end, kAligned)
                         : make_float4(0.f, 0.f, 0.f, 0.f);
        }
    }
}

// acc[s][c] += sum over j < 4 of Y(s, k + j) X(k + j, l + c), for s < S. Y is read through the caches.
template <XRows kX, YRows kY, int kS, bool kAligned>
__device__ __forceinline__ void step(float (&acc)[kS][4], const XQuad& x, const SkinnyView& v, int64_t k,
                                     int k_end) {
    if constexpr (kY == YRows::kAlongK) {
#pragma unroll
        for (int s = 0; s < kS; ++s) {
            if (s < v.S) {  // uniform across the grid
                const float4 y = gemm::guarded_row4<gemm::CachedLoad>(v.Y + s * v.ldy, int(k), k_end, kAligned);
#pragma unroll
                for (int j = 0; j < 4; ++j)
#pragma unroll
                    for (int c = 0; c < 4; ++c) acc[s][c] = fmaf(gemm::f4_get(y, j), x_at<kX>(x, j, c), acc[s][c]);
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const float* const row = v.Y + (k + j) * v.ldy;
            const int limit = k + j < k_end ? v.S : 0;
#pragma unroll
            for (int q = 0; q < kS / 4; ++q) {
                if (4 * q < v.S) {
                    const float4 y = gemm::guarded_row4<gemm::CachedLoad>(row, 4 * q, limit, kAligned);
#pragma unroll
                    for (int i = 0; i < 4; ++i)
#pragma unroll
                        for (int c = 0; c < 4; ++c)
                            acc[4 * q + i][c] = fmaf(gemm::f4_get(y, i), x_at<kX>(x, j, c), acc[4 * q + i][c]);
                }
            }
        }
    }
}

// kAligned: the rows of X and Y may be read as float4.
template <XRows kX, YRows kY, int kS, bool kAligned>
__global__ void __launch_bounds__(kThreads, SkinnyShape<kS>::kMinBlocksPerSm) skinny_kernel(const SkinnyView v) {
    constexpr int kDepth = SkinnyShape<kS>::depth(kAligned);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int wlq = v.lane_quads, groups_l = v.row_groups, groups_k = kWarps / groups_l;
    const int row_group = warp % groups_l, k_group = warp / groups_l;
    const int quads_l = groups_l * wlq;  // l-quads of the block
    const int64_t l_block = int64_t(blockIdx.x) * quads_l * 4;
    const int64_t l = l_block + 4 * (row_group * wlq + lane % wlq);
    // This slice's K range; the thread's first k, and the k the block advances per step.
    const int64_t k_begin = int64_t(blockIdx.z) * v.k_per_slice;
    const int k_end = int(min(int64_t(v.K), k_begin + v.k_per_slice));
    const int kquads_warp = 32 / wlq;
    const int stride = 4 * groups_k * kquads_warp;
    int64_t k = k_begin + 4 * (k_group * kquads_warp + lane / wlq);

    float acc[kS][4];
#pragma unroll
    for (int s = 0; s < kS; ++s)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[s][c] = 0.f;

    XQuad x[kDepth];
#pragma unroll
    for (int d = 0; d < kDepth; ++d) load_x<kX, kAligned>(x[d], v, k + int64_t(d) * stride, l, k_end);
    while (k < k_end) {
#pragma unroll
        for (int d = 0; d < kDepth; ++d) {
            if (k < k_end) {
                step<kX, kY, kS, kAligned>(acc, x[d], v, k, k_end);
                load_x<kX, kAligned>(x[d], v, k + int64_t(kDepth) * stride, l, k_end);
            }
            k += stride;
        }
    }

    // The lanes of one l-quad hold sums over different k: a butterfly over the lane bits above the quad's.
    for (int mask = wlq; mask < 32; mask <<= 1)
#pragma unroll
        for (int s = 0; s < kS; ++s)
            if (s < v.S)
#pragma unroll
                for (int c = 0; c < 4; ++c) acc[s][c] += __shfl_xor_sync(0xffffffffu, acc[s][c], mask);

    // The warps of one row group hold sums over different k: added in shared memory, 4 rows of C's small side at a
    // time, k groups in order; then the slice's piece of C is written.
    __shared__ float4 partial[kWarps][32][4];  // [warp][l-quad of the warp][row of the round]
    float* const out = v.out + int64_t(blockIdx.z) * v.slice_stride;
    gemm::static_for<0, kS / 4>([&](auto round) {
        constexpr int s0 = 4 * decltype(round)::value;
        if (s0 >= v.S) return;  // uniform across the grid
        if (lane < wlq)
#pragma unroll
            for (int i = 0; i < 4; ++i)
                partial[warp][lane][i] = make_float4(acc[s0 + i][0], acc[s0 + i][1], acc[s0 + i][2], acc[s0 + i][3]);
        __syncthreads();
        for (int o = threadIdx.x; o < 4 * quads_l; o += kThreads) {
            const int q = o % quads_l, i = o / quads_l;  // the block's l-quad, the round's row
            const int group = q / wlq, quad = q % wlq;
            float4 sum = partial[group][quad][i];
            for (int g = 1; g < groups_k; ++g) {
                const float4 p = partial[g * groups_l + group][quad][i];
                sum.x += p.x;
                sum.y += p.y;
                sum.z += p.z;
                sum.w += p.w;
            }
            const int s = s0 + i;
            const int64_t l0 = l_block + 4 * q;
            if (s < v.S) {
                const float values[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
                for (int c = 0; c < 4; ++c)
                    if (l0 + c < v.L) out[s * v.out_s + (l0 + c) * v.out_l] = values[c];
            }
        }
        __syncthreads();
    });
}

// The launch's shape, from g alone (the slices come from split-K).
struct Plan {
    bool small_m;  // S = M (Y = op(A)), else S = N and C is computed transposed
    XRows x;
    YRows y;
    int S, L;
    int lane_quads, row_groups;
    int blocks_per_sm;
    int64_t column_blocks;
    int splits;  // K slices split-K should cut
};

int ceil_pow2(int64_t n) {
    int p = 1;
    while (p < n && p < (1 << 30)) p *= 2;
    return p;
}

// Blocks (along L) of a plan's lane quads and row groups.
int64_t column_blocks(int L, int lane_quads, int row_groups) {
    const int64_t per_block = int64_t(4) * lane_quads * row_groups;
    return (L - 1) / per_block + 1;
}

// Narrowest piece of X along L a warp reads per row when its rows lie along L: 4 quads, 64 bytes.
constexpr int kMinLaneQuads = 4;
// Shortest K slice worth a block of its own (split-K costs a pass over the slices' partial products).
constexpr int kMinSliceK = 1024;

Plan plan(const GemmArgs& g, int sms) {
    Plan p{};
    p.small_m = g.M <= g.N;
    p.S = p.small_m ? g.M : g.N;
    p.L = p.small_m ? g.N : g.M;
    if (p.small_m) {
        p.x = g.op_b == MM_OP_N ? XRows::kAlongL : XRows::kAlongK;
        p.y = g.op_a == MM_OP_N ? YRows::kAlongK : YRows::kAlongS;
    } else {
        p.x = g.op_a == MM_OP_N ? XRows::kAlongK : XRows::kAlongL;
        p.y = g.op_b == MM_OP_N ? YRows::kAlongS : YRows::kAlongK;
    }
    p.blocks_per_sm = p.S <= 4 ? SkinnyShape<4>::kMinBlocksPerSm : SkinnyShape<16>::kMinBlocksPerSm;
    const int64_t wave = int64_t(sms) * p.blocks_per_sm;
    const int quads = ceil_pow2((int64_t(p.L) + 3) / 4);
    // Along L as wide as the large side lets the blocks fill a wave; the rest of a block goes along K.
    if (p.x == XRows::kAlongL) {
        p.row_groups = 1;
        p.lane_quads = quads < 32 ? quads : 32;
        while (p.lane_quads > kMinLaneQuads && column_blocks(p.L, p.lane_quads, 1) < wave) p.lane_quads /= 2;
    } else {
        p.lane_quads = 1;
        p.row_groups = quads < kWarps ? quads : kWarps;
        while (p.row_groups > 1 && column_blocks(p.L, 1, p.row_groups) < wave) p.row_groups /= 2;
    }
    p.column_blocks = column_blocks(p.L, p.lane_quads, p.row_groups);
    // K slices for what the large side leaves of the wave (rounded down: a slice count that would start a second,
    // mostly empty wave is not taken), none shorter than kMinSliceK.
    int64_t splits = wave / p.column_blocks;
    const int64_t by_k = g.K / kMinSliceK;
    if (splits > by_k) splits = by_k;
    if (splits > 65535) splits = 65535;  // grid dimension z
    p.splits = splits < 2 ? 1 : int(splits);
    return p;
}

template <XRows kX, YRows kY, int kS>
mm_status launch_view(const SkinnyView& v, bool aligned, int64_t column_blocks, cudaStream_t stream,
                      unsigned slices) {
    const dim3 grid(unsigned(column_blocks), 1, slices);
    return with_alignment(aligned, [&](auto a) {
        return gemm::launch(skinny_kernel<kX, kY, kS, decltype(a)::value>, grid, kThreads, 0, stream, "skinny", v);
    });
}

// The kernel instantiation for the plan's layouts and small side.
mm_status launch_planned(const Plan& p, const SkinnyView& v, bool aligned, cudaStream_t stream, unsigned slices) {
    const auto by_side = [&](auto x, auto y) {
        constexpr XRows kX = decltype(x)::value;
        constexpr YRows kY = decltype(y)::value;
        return p.S <= 4 ? launch_view<kX, kY, 4>(v, aligned, p.column_blocks, stream, slices)
                        : launch_view<kX, kY, 16>(v, aligned, p.column_blocks, stream, slices);
    };
    const auto by_y = [&](auto x) {
        return p.y == YRows::kAlongK ? by_side(x, std::integral_constant<YRows, YRows::kAlongK>{})
                                     : by_side(x, std::integral_constant<YRows, YRows::kAlongS>{});
    };
    return p.x == XRows::kAlongL ? by_y(std::integral_constant<XRows, XRows::kAlongL>{})
                                 : by_y(std::integral_constant<XRows, XRows::kAlongK>{});
}

// split-K's slice launcher: slices of ktiles_per_split 4-deep K tiles.
mm_status launch_slices(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                        cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const Plan p = plan(g, sms);
    SkinnyView v{};
    v.S = p.S;
    v.L = p.L;
    v.K = g.K;
    const bool x_is_b = p.small_m;
    v.X = x_is_b ? g.B : g.A;
    v.ldx = x_is_b ? g.ldb : g.lda;
    v.Y = x_is_b ? g.A : g.B;
    v.ldy = x_is_b ? g.lda : g.ldb;
    v.out = out.base;
    v.out_s = p.small_m ? out.ld : 1;
    v.out_l = p.small_m ? 1 : out.ld;
    v.slice_stride = out.slice_stride;
    v.k_per_slice = 4 * ktiles_per_split;
    v.lane_quads = p.lane_quads;
    v.row_groups = p.row_groups;
    const bool aligned = rows_aligned16(v.X, v.ldx) && rows_aligned16(v.Y, v.ldy);
    return launch_planned(p, v, aligned, stream, unsigned(splits));
}

bool takes_planned(const GemmArgs& g, int splits) { return splits == 1 && skinny::takes(g); }

mm_status launch_planned_config(const GemmArgs& g, int /*splits*/, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    return gemm::run_split_k(g, plan(g, sms).splits, 4, &launch_slices, stream);
}

}  // namespace

namespace skinny {

bool takes(const GemmArgs& g) { return (g.M < g.N ? g.M : g.N) <= kMaxSmallSide; }

constinit const gemm::ConfigDesc kPlanned{"skinny",       {kMaxSmallSide, 128, 4}, SkinnyShape<16>::kMinBlocksPerSm,
                                          false,          &takes_planned,          &launch_planned_config,
                                          &pipelined::k64x64x16};

}  // namespace skinny

// Registry entry point: the planned kernel where C has a small side, else its fallback.
mm_status launch_skinny(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(skinny::kPlanned, g, 1, stream);
}
