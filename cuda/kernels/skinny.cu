// skinny: products with a small side (at most 32 rows of C, or at most 32 columns): a vector times a matrix, a
// decode-sized batch against a weight matrix, a tall panel times a few columns, a long K over a small C.
//
// Technique: such a product reads the large operand once and does at most 64 FLOP per 4-byte element of it, so
// HBM bandwidth bounds it, not arithmetic. The tiled rungs waste it: their 64- to 256-row tiles are mostly empty,
// and the few tiles leave most SMs idle. Here every SM streams its own part of the large operand, each element
// read once by a 16-byte cp.async into a ring in shared memory that keeps two steps of every warp in flight while
// it multiplies the third, and the small operand, read by every block, comes from L2 the same way.
//
// The problem as this kernel sees it: C's small side S and large side L, C(s, l) = sum_k Y(s, k) X(k, l), with X
// the large operand (K x L) and Y the small one (S x K). For M <= N, Y = op(A) and X = op(B); otherwise the
// kernel computes C's transpose (Y = op(B)^T, X = op(A)^T) and writes it transposed. X is stored with its rows
// along L (XRows::kAlongL: B as stored for op_b = N) or along K (kAlongK: B for op_b = T, the weight layout of
// x @ W^T; A for op_a = N); every op combination is read as stored.
//
// The work: a thread holds 4 x 4 sums, for 4 rows of Y (an s-group) and 4 consecutive l of X along L (kAlongL) or
// 4 rows of X along K (kAlongK), and takes 4 consecutive k per step: 4 float4 of X, 4 of Y, 64 FMAs. A warp's 32
// lanes are `lane_quads` l-quads (fastest) by `s_groups` s-groups by the rest along K; the lanes of one l-quad and
// k-quad read the same piece of X, which one of them copies (and likewise Y's). A block's 8 warps are `row_groups` along L by the rest
// along K. The launcher makes the blocks as wide along L as lets them cover about one wave of the GPU, and cuts K
// into slices (split-K, core/schedule/split_k.h) only where the large side alone cannot fill it. Within a block the
// partial sums meet in registers (a shuffle butterfly over the lanes along K) and in shared memory (the warps along
// K), always in the same order, so the same inputs give the same bits.
//
// Changes vs the tiled rungs: no shared-memory tiles and no tile of C; the work is cut along L and K instead of
// M and N, the small operand is read from the caches, and one kernel takes every op combination.
//
// Parameters: 256 threads, 2 blocks per SM; 16 sums per thread; a ring of 3 steps per warp (96 KB a block).
#include "kernels/skinny.h"

#include <type_traits>

#include "core/copy/cp_async.cuh"
#include "core/copy/guarded_load.cuh"
#include "core/device.h"
#include "core/launch.h"
#include "core/schedule/split_k.h"
#include "core/unroll.cuh"
#include "kernels/pipelined.h"

namespace {

constexpr int kThreads = 256, kWarps = kThreads / 32;
constexpr int kMinBlocksPerSm = 2;  // the occupancy __launch_bounds__ promises

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
    // A warp's lanes: lane_quads l-quads (fastest) x s_groups groups of 4 rows of Y x the rest k-quads; all powers
    // of two. A block's warps: row_groups along L x the rest along K.
    int lane_quads, s_groups, row_groups;
};

// A thread's operands of one step: x.v[j] = X(k + j, l .. l + 3) along L, x.v[c] = X(k .. k + 3, l + c) along K;
// y.v[j] = Y(s .. s + 3, k + j) along S, y.v[i] = Y(s + i, k .. k + 3) along K.
struct Quad {
    float4 v[4];
};

// The ring in shared memory: per warp kStages steps, each 4 rows of 32 lane pieces (16 bytes each) of X, then as many
// of Y. X's piece of the lanes' (l-quad, k-quad) sits at slot lq + lane_quads * kq, Y's of their (s-group, k-quad) at
// slot sg + s_groups * kq, so that a warp's 16-byte reads hit consecutive addresses.
constexpr int kStages = 3;
constexpr int kSlots = 32;
constexpr int kPieceFloats = 4 * kSlots * 4;  // one operand's pieces of a step
constexpr int kStageFloats = 2 * kPieceFloats;
constexpr int kRingBytes = kWarps * kStages * kStageFloats * int(sizeof(float));
static_assert(kRingBytes >= kWarps * 32 * 4 * 16, "the ring holds the warps' partial sums at the end");
static_assert(gemm::fits_shared_memory(kRingBytes, kMinBlocksPerSm), "the ring over the shared-memory limits");

// Copies a piece of `matrix`, rows row .. row + 3 by columns col .. col + 3, to rows of the ring from dst (cp.async);
// what lies past row_end or col_end is zero-filled.
template <bool kAligned>
__device__ __forceinline__ void copy_piece(uint32_t dst, const float* matrix, int64_t ld, int64_t row, int64_t row_end,
                                           int64_t col, int64_t col_end) {
    const int64_t inside = col_end - col;  // columns of a row inside
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const float* const from = matrix + (row + i) * ld + col;
        const int64_t n = row + i < row_end && inside > 0 ? inside : 0;
        const uint32_t d = dst + i * kSlots * 16;
        if (kAligned && n >= 4) {
            gemm::cp_async16(d, from);
        } else {
#pragma unroll
            for (int c = 0; c < 4; ++c) gemm::cp_async4_zfill(d + 4 * c, c < n ? from + c : matrix, c < n);
        }
    }
}

// The thread's piece of X at k: rows k + i by l .. l + 3 (along L), or rows l + i by k .. k + 3 (along K).
template <XRows kX, bool kAligned>
__device__ __forceinline__ void copy_x(uint32_t dst, const SkinnyView& v, int64_t k, int64_t l, int k_end) {
    if constexpr (kX == XRows::kAlongL) copy_piece<kAligned>(dst, v.X, v.ldx, k, k_end, l, v.L);
    else copy_piece<kAligned>(dst, v.X, v.ldx, l, v.L, k, k_end);
}

// The thread's piece of Y at k: rows s + i by k .. k + 3 (along K), or rows k + i by s .. s + 3 (along S).
template <YRows kY, bool kAligned>
__device__ __forceinline__ void copy_y(uint32_t dst, const SkinnyView& v, int64_t k, int s, int k_end) {
    if constexpr (kY == YRows::kAlongK) copy_piece<kAligned>(dst, v.Y, v.ldy, s, v.S, k, k_end);
    else copy_piece<kAligned>(dst, v.Y, v.ldy, k, k_end, s, v.S);
}

// acc[i][c] += sum over j < 4 of Y(s + i, k + j) X(k + j, l + c).
template <XRows kX, YRows kY>
__device__ __forceinline__ void multiply(float (&acc)[4][4], const Quad& x, const Quad& y) {
    using gemm::f4_get;
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const float a = kY == YRows::kAlongS ? f4_get(y.v[j], i) : f4_get(y.v[i], j);
#pragma unroll
            for (int c = 0; c < 4; ++c) {
                const float b = kX == XRows::kAlongL ? f4_get(x.v[j], c) : f4_get(x.v[c], j);
                acc[i][c] = fmaf(a, b, acc[i][c]);
            }
        }
}

// kAligned: the rows of X and Y may be read 16 bytes at a time.
template <XRows kX, YRows kY, bool kAligned>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) skinny_kernel(const SkinnyView v) {
    extern __shared__ __align__(16) float ring[];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int lq_count = v.lane_quads, sg_count = v.s_groups, kq_count = 32 / (lq_count * sg_count);
    const int lq = lane % lq_count, sg = lane / lq_count % sg_count, kq = lane / (lq_count * sg_count);
    const int groups_l = v.row_groups, groups_k = kWarps / groups_l;
    const int row_group = warp % groups_l, k_group = warp / groups_l;
    const int quads_l = groups_l * lq_count;  // l-quads of the block
    const int64_t l_block = int64_t(blockIdx.x) * quads_l * 4;
    const int64_t l = l_block + 4 * (row_group * lq_count + lq);
    const int s = 4 * sg;
    // This slice's K range; the warp's first k, the thread's, the k the block advances per step, and the warp's steps.
    const int64_t k_begin = int64_t(blockIdx.z) * v.k_per_slice;
    const int k_end = int(min(int64_t(v.K), k_begin + v.k_per_slice));
    const int stride = 4 * groups_k * kq_count;
    const int64_t k_warp = k_begin + 4 * (k_group * kq_count);
    const int64_t k = k_warp + 4 * kq;
    const int steps = k_warp < k_end ? int((k_end - 1 - k_warp) / stride + 1) : 0;

    // X and Y go through the ring, copied kStages - 1 steps ahead: each piece by one lane of those that read it (X's
    // by the lanes of s-group 0, Y's by those of l-quad 0).
    float* const warp_ring = ring + warp * kStages * kStageFloats;
    const int x_slot = lq + lq_count * kq, y_slot = sg + sg_count * kq;
    const uint32_t x_at = gemm::smem_addr(warp_ring + 4 * x_slot);
    const uint32_t y_at = gemm::smem_addr(warp_ring + kPieceFloats + 4 * y_slot);
    const auto copy = [&](int t) {
        const int64_t at = k + int64_t(t) * stride;
        const uint32_t stage = (t % kStages) * kStageFloats * 4;
        if (t < steps && sg == 0) copy_x<kX, kAligned>(x_at + stage, v, at, l, k_end);
        if (t < steps && lq == 0) copy_y<kY, kAligned>(y_at + stage, v, at, s, k_end);
        gemm::cp_async_commit();
    };
#pragma unroll
    for (int t = 0; t < kStages - 1; ++t) copy(t);
    float acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[i][c] = 0.f;
    for (int t = 0; t < steps; ++t) {
        copy(t + kStages - 1);
        gemm::cp_async_wait<kStages - 1>();
        __syncwarp();
        const float4* const stage = reinterpret_cast<const float4*>(warp_ring + (t % kStages) * kStageFloats);
        Quad x, y;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            x.v[i] = stage[i * kSlots + x_slot];
            y.v[i] = stage[kPieceFloats / 4 + i * kSlots + y_slot];
        }
        multiply<kX, kY>(acc, x, y);
        __syncwarp();  // every lane has read this stage before it is copied into again
    }

    // The lanes of one (l-quad, s-group) hold sums over different k: a butterfly over the k-quad lane bits.
    for (int mask = lq_count * sg_count; mask < 32; mask <<= 1)
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[i][c] += __shfl_xor_sync(0xffffffffu, acc[i][c], mask);

    // The warps of one row group hold sums over different k: added in shared memory, k groups in order; then the
    // slice's piece of C is written.
    // [warp][lane of k-quad 0][row of the s-group]: 4 l, in the ring, which no copy writes any more
    gemm::cp_async_wait<0>();
    __syncthreads();
    auto& partial = *reinterpret_cast<float4(*)[kWarps][32][4]>(ring);
    if (kq == 0)
#pragma unroll
        for (int i = 0; i < 4; ++i) partial[warp][lane][i] = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    __syncthreads();
    float* const out = v.out + int64_t(blockIdx.z) * v.slice_stride;
    const int lanes_used = lq_count * sg_count;
    for (int o = threadIdx.x; o < groups_l * lanes_used * 4; o += kThreads) {
        // o: the row of the s-group (slowest), the row group, the lane (l-quad fastest)
        const int slot = o % lanes_used, group = o / lanes_used % groups_l, i = o / (lanes_used * groups_l);
        float4 sum = partial[group][slot][i];
        for (int g = 1; g < groups_k; ++g) {
            const float4 p = partial[g * groups_l + group][slot][i];
            sum.x += p.x;
            sum.y += p.y;
            sum.z += p.z;
            sum.w += p.w;
        }
        const int row = 4 * (slot / lq_count % sg_count) + i;
        const int64_t l0 = l_block + 4 * (group * lq_count + slot % lq_count);
        if (row < v.S) {
            const float values[4] = {sum.x, sum.y, sum.z, sum.w};
#pragma unroll
            for (int c = 0; c < 4; ++c)
                if (l0 + c < v.L) out[row * v.out_s + (l0 + c) * v.out_l] = values[c];
        }
    }
}

// The launch's shape, from g alone (the slices come from split-K).
struct Plan {
    bool small_m;  // S = M (Y = op(A)), else S = N and C is computed transposed
    XRows x;
    YRows y;
    int S, L;
    int lane_quads, s_groups, row_groups;
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

// Narrowest piece of a row of X along L that a warp reads per step (where the s-groups leave the lanes): 8 quads,
// a 128-byte line, rather than 16- or 32-byte pieces of many rows at once.
constexpr int kMinLaneQuads = 8;
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
    p.s_groups = ceil_pow2((int64_t(p.S) + 3) / 4);
    const int64_t wave = int64_t(sms) * kMinBlocksPerSm;
    const int quads = ceil_pow2((int64_t(p.L) + 3) / 4);
    const int lanes_left = 32 / p.s_groups;
    // Along L as wide as the large side lets the blocks fill a wave; the rest of a block goes along K.
    if (p.x == XRows::kAlongL) {
        p.row_groups = 1;
        p.lane_quads = quads < lanes_left ? quads : lanes_left;
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
    v.s_groups = p.s_groups;
    v.row_groups = p.row_groups;
    const dim3 grid(unsigned(p.column_blocks), 1, unsigned(splits));
    const bool aligned = rows_aligned16(v.X, v.ldx) && rows_aligned16(v.Y, v.ldy);
    const auto launch = [&](auto x, auto y) {
        return with_alignment(aligned, [&](auto a) {
            constexpr auto kernel = skinny_kernel<decltype(x)::value, decltype(y)::value, decltype(a)::value>;
            MM_TRY(gemm::allow_shared_memory<kernel>(kRingBytes, "cudaFuncSetAttribute(skinny)"));
            return gemm::launch(kernel, grid, kThreads, kRingBytes, stream, "skinny", v);
        });
    };
    using AlongL = std::integral_constant<XRows, XRows::kAlongL>;
    using AlongK = std::integral_constant<XRows, XRows::kAlongK>;
    using YAlongK = std::integral_constant<YRows, YRows::kAlongK>;
    using YAlongS = std::integral_constant<YRows, YRows::kAlongS>;
    if (p.x == XRows::kAlongL) return p.y == YRows::kAlongK ? launch(AlongL{}, YAlongK{}) : launch(AlongL{}, YAlongS{});
    return p.y == YRows::kAlongK ? launch(AlongK{}, YAlongK{}) : launch(AlongK{}, YAlongS{});
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

constinit const gemm::ConfigDesc kPlanned{"skinny",      {kMaxSmallSide, 128, 4}, kMinBlocksPerSm, false,
                                          &takes_planned, &launch_planned_config, &pipelined::k64x64x16};

}  // namespace skinny

// Registry entry point: the planned kernel where C has a small side, else its fallback.
mm_status launch_skinny(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(skinny::kPlanned, g, 1, stream);
}
