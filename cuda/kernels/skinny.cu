// skinny: products with a small side: a vector times a matrix, a decode-sized batch against a weight matrix, a tall
// panel times a few columns, a long K over a small C.
//
// Technique: such a product reads its large operand once and does at most 2 x 32 FLOP per 4-byte element of it, so
// HBM bandwidth bounds it, not arithmetic. The tiled rungs waste it: their 32- to 256-row tiles are mostly empty, and
// the few tiles leave most SMs idle. Here every element of the large operand goes straight from HBM into registers,
// once, by 16-byte loads that bypass L1, and the threads keep many of them in flight; the small operand, which every
// block reads, comes from the caches.
//
// The problem as this kernel sees it: C's small side S and large side L, C(s, l) = sum_k Y(s, k) X(k, l), with X
// the large operand (K x L) and Y the small one (S x K). For M <= N, Y = op(A) and X = op(B); otherwise the kernel
// computes C's transpose (Y = op(B)^T, X = op(A)^T) and writes it transposed. Every op combination is read as
// stored, through one of two mainloops chosen by how X is stored:
// - X with its rows along L (B as stored for op_b = N; A for op_a = T): a lane holds S x 4 sums for 4 consecutive
//   l, and takes 4 consecutive k per step: 4 float4 of X (one per row k) and Y(s, k .. k + 3) for every s. A warp's
//   lanes are `lane_quads` l-quads (fastest) by the rest along K, so that a warp reads whole lines of X's rows and
//   the lanes of one k read the same Y, a broadcast. Up to 8 rows of Y (S x 4 sums in registers; 16 rows would
//   overflow them).
// - X with its rows along K (A as stored for op_a = N; B for op_b = T, the weight layout of x @ W^T): a warp takes
//   4 rows of X at once, its 32 lanes side by side along K (512 contiguous bytes of a row per load), and a lane holds
//   4 x S sums; the lanes' sums meet in a shuffle butterfly at the end. Up to 4 rows of Y (each lane reads its own
//   k of Y, so more rows would cost more cache reads than X's stream).
// Rows of Y beyond that are cut into up to 4 groups, taken by neighbouring blocks that read the same pieces of X at
// about the same time, the later ones from L2: up to 32 rows of Y with X along L, 16 with X along K.
// The 8 warps of a block take different k (X along L) or different rows (X along K). Where the large side cannot
// fill the GPU, K is also cut into slices across blocks: up to 8 slices form a thread block cluster (sm_90), whose
// blocks add their sums through distributed shared memory and write C in the same launch; a long K over a tiny
// large side takes more slices, through split-K (core/schedule/split_k.h), a workspace and a reduction. Every sum is
// taken in the same order, so the same inputs give the same bits.
//
// Changes vs the tiled rungs: no shared-memory tiles and no tile of C; the work is cut along L and K instead of M
// and N, the operands go to registers without shared memory, and one kernel family takes every op combination.
//
// Parameters: 256 threads, 2 blocks per SM; a group's rows rounded up to 1, 2, 4 or 8 rows of sums per lane (X along
// L) or 1, 2 or 4 (X along K), up to 4 groups; 2 steps in flight per loop turn for up to 4 rows, 1 for more.
#include "kernels/skinny.h"

#include <cooperative_groups.h>

#include <climits>
#include <type_traits>

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

// The most rows of Y each mainloop holds sums for, and the most groups of them (blocks that share X's pieces).
constexpr int kMaxRowsAlongL = 8, kMaxRowsAlongK = 4, kMaxSGroups = 4;
static_assert(skinny::kMaxSmallSide == kMaxSGroups * kMaxRowsAlongL &&
              skinny::kMaxSmallSideAlongK == kMaxSGroups * kMaxRowsAlongK, "skinny.h's limits");
// X along K: the rows of X a warp takes at once, and so the rows of a block.
constexpr int kRowsPerWarp = 4, kRowsPerBlock = kWarps * kRowsPerWarp;

// One launch: the product as the kernel sees it, where its slices go, and the lanes' shape.
struct SkinnyView {
    int S, L, K;
    const float* X;
    int64_t ldx;
    const float* Y;
    int64_t ldy;
    float* out;  // slice z's C(s, l) at out + z * slice_stride + s * out_s + l * out_l
    int64_t out_s, out_l, slice_stride;
    int k_per_slice;  // a multiple of 4
    // The blocks of a cluster (grid z, a slice each) add their sums in shared memory, in slice order, and write C
    // (slice_stride 0); else every block writes its slice's product.
    bool cluster_sum;
    int lane_quads;  // X along L: l-quads of a warp's lanes (a power of two); the rest of the lanes go along K
    // Y's rows are cut into s_groups groups of the kernel's rows, taken by neighbouring blocks (blockIdx.x: the
    // group fastest), which read the same piece of X at about the same time, from L2 after the first.
    int s_groups;
};

// This block's group of Y's rows and its block along L.
__device__ __forceinline__ int s_group(const SkinnyView& v) { return int(blockIdx.x) % v.s_groups; }
__device__ __forceinline__ int64_t column_block(const SkinnyView& v) { return int64_t(blockIdx.x) / v.s_groups; }

// Y(s0 + s, k .. k + 3) for s < kRows (zero past S and past k_end), by how Y is stored; s0 a multiple of 4 where
// kRows is. kYVector: Y's stored rows may be read 16 bytes at a time.
template <int kRows, YRows kY, bool kYVector>
__device__ __forceinline__ void load_y(float4 (&y)[kRows], const SkinnyView& v, int s0, int k, int k_end) {
    using gemm::CachedLoad;
    if constexpr (kY == YRows::kAlongK) {  // Y's stored rows are s: 4 k of one s per load
#pragma unroll
        for (int s = 0; s < kRows; ++s) {
            y[s] = gemm::guarded_row4<CachedLoad>(v.Y + int64_t(s0 + s) * v.ldy, k, s0 + s < v.S ? k_end : 0,
                                                  kYVector);
        }
    }
    if constexpr (kY == YRows::kAlongS) {  // Y's stored rows are k: 4 s of one k per load
        float e[kRows][4];
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int s = 0; s < kRows; s += 4) {
                const float4 q = gemm::guarded_row4<CachedLoad>(v.Y + int64_t(k + j) * v.ldy, s0 + s,
                                                                k + j < k_end ? v.S : 0, kYVector);
#pragma unroll
                for (int i = 0; i < 4 && s + i < kRows; ++i) e[s + i][j] = gemm::f4_get(q, i);
            }
#pragma unroll
        for (int s = 0; s < kRows; ++s) y[s] = make_float4(e[s][0], e[s][1], e[s][2], e[s][3]);
    }
}

// The end of every block: its sums, sums[o] for the block's output o at (s, l) = at(o) (s past the block's group's
// first row), go to C or to the slice's
// product; a cluster first adds its blocks' sums in slice order, each block taking a share of the outputs.
template <int kRows, class At>
__device__ __forceinline__ void write_sums(const SkinnyView& v, float* sums, int outputs, At at) {
    const int s0 = s_group(v) * kRows;
    const auto store = [&](int o, float value) {
        int s = 0;
        int64_t l = 0;
        at(o, &s, &l);
        s += s0;
        if (s < v.S && l < v.L) v.out[int64_t(blockIdx.z) * v.slice_stride + s * v.out_s + l * v.out_l] = value;
    };
    if (!v.cluster_sum) {
        for (int o = threadIdx.x; o < outputs; o += kThreads) store(o, sums[o]);
        return;
    }
#if __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    const cg::cluster_group cluster = cg::this_cluster();
    const int ranks = int(cluster.num_blocks()), rank = int(cluster.block_rank());  // rank = slice along z
    cluster.sync();
    for (int o = rank * kThreads + threadIdx.x; o < outputs; o += ranks * kThreads) {
        float sum = 0.f;
        for (int r = 0; r < ranks; ++r) sum += cluster.map_shared_rank(sums, r)[o];
        store(o, sum);
    }
    cluster.sync();  // no block leaves while another still reads its sums
#endif
}

// This block's K range: its slice of K.
__device__ __forceinline__ void slice_range(const SkinnyView& v, int* k_begin, int* k_end) {
    const int64_t begin = int64_t(blockIdx.z) * v.k_per_slice;
    *k_begin = int(begin < v.K ? begin : v.K);
    *k_end = int(begin + v.k_per_slice < v.K ? begin + v.k_per_slice : v.K);
}

// X along L. kRows: rows of Y held (S rounded up); kXVector, kYVector: X's, Y's stored rows may be read 16 bytes
// at a time.
template <int kRows, YRows kY, bool kXVector, bool kYVector>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) skinny_along_l(const SkinnyView v) {
    constexpr int kTurn = kRows <= 4 ? 2 : 1;  // steps whose loads are in flight together
    __shared__ float4 block_sums[kRows][32];   // [s][l-quad of the block]
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int lane_quads = v.lane_quads, k_lanes = 32 / lane_quads;
    const int lq = lane % lane_quads, kl = lane / lane_quads;
    const int l = int((column_block(v) * lane_quads + lq) * 4);
    const int s0 = s_group(v) * kRows;
    int k_begin = 0, k_end = 0;
    slice_range(v, &k_begin, &k_end);
    const int stride = 4 * k_lanes * kWarps;  // k the block advances per step

    float acc[kRows][4] = {};
    for (int k = k_begin + 4 * (warp * k_lanes + kl); k < k_end; k += kTurn * stride) {
        float4 x[kTurn][4], y[kTurn][kRows];
#pragma unroll
        for (int t = 0; t < kTurn; ++t) {
            const int kt = k + t * stride;
#pragma unroll
            for (int j = 0; j < 4; ++j)
                x[t][j] = gemm::guarded_row4<gemm::StreamedLoad>(v.X + int64_t(kt + j) * v.ldx, l,
                                                                 kt + j < k_end ? v.L : 0, kXVector);
            load_y<kRows, kY, kYVector>(y[t], v, s0, kt, k_end);
        }
#pragma unroll
        for (int t = 0; t < kTurn; ++t)
#pragma unroll
            for (int s = 0; s < kRows; ++s)
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const float a = gemm::f4_get(y[t][s], j);
                    acc[s][0] = fmaf(a, x[t][j].x, acc[s][0]);
                    acc[s][1] = fmaf(a, x[t][j].y, acc[s][1]);
                    acc[s][2] = fmaf(a, x[t][j].z, acc[s][2]);
                    acc[s][3] = fmaf(a, x[t][j].w, acc[s][3]);
                }
    }

    // The lanes of one l-quad hold sums over different k: a butterfly over the k-lane bits; then the warps' sums,
    // added in warp order.
    for (int mask = lane_quads; mask < 32; mask <<= 1)
#pragma unroll
        for (int s = 0; s < kRows; ++s)
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[s][c] += __shfl_xor_sync(0xffffffffu, acc[s][c], mask);
    for (int w = 0; w < kWarps; ++w) {
        if (warp == w && kl == 0)
#pragma unroll
            for (int s = 0; s < kRows; ++s) {
                float4 sum = w == 0 ? make_float4(0.f, 0.f, 0.f, 0.f) : block_sums[s][lq];
                sum.x += acc[s][0];
                sum.y += acc[s][1];
                sum.z += acc[s][2];
                sum.w += acc[s][3];
                block_sums[s][lq] = sum;
            }
        __syncthreads();
    }
    const int64_t l_block = column_block(v) * lane_quads * 4;
    write_sums<kRows>(v, &block_sums[0][0].x, kRows * 128, [&](int o, int* s, int64_t* at_l) {  // [s][128 l]
        *s = o / 128;
        *at_l = o % 128 < 4 * lane_quads ? l_block + o % 128 : v.L;  // past the block's l: not written
    });
}

// X along K. kRows: rows of Y held (S rounded up); kXVector, kYVector: X's, Y's stored rows may be read 16 bytes
// at a time.
template <int kRows, YRows kY, bool kXVector, bool kYVector>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) skinny_along_k(const SkinnyView v) {
    constexpr int kTurn = 2;  // steps whose loads are in flight together
    __shared__ float block_sums[kRowsPerBlock * kRows];  // [row of X][s]
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t row0 = column_block(v) * kRowsPerBlock + warp * kRowsPerWarp;
    const int s0 = s_group(v) * kRows;
    int k_begin = 0, k_end = 0;
    slice_range(v, &k_begin, &k_end);
    constexpr int kStride = 4 * 32;

    float acc[kRowsPerWarp][kRows] = {};
    for (int k = k_begin + 4 * lane; k < k_end; k += kTurn * kStride) {
        float4 x[kTurn][kRowsPerWarp], y[kTurn][kRows];
#pragma unroll
        for (int t = 0; t < kTurn; ++t) {
            const int kt = k + t * kStride;
#pragma unroll
            for (int r = 0; r < kRowsPerWarp; ++r)
                x[t][r] = gemm::guarded_row4<gemm::StreamedLoad>(v.X + (row0 + r) * v.ldx, kt,
                                                                 row0 + r < v.L ? k_end : 0, kXVector);
            load_y<kRows, kY, kYVector>(y[t], v, s0, kt, k_end);
        }
#pragma unroll
        for (int t = 0; t < kTurn; ++t)
#pragma unroll
            for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
                for (int s = 0; s < kRows; ++s) {
                    float sum = acc[r][s];
                    sum = fmaf(x[t][r].x, y[t][s].x, sum);
                    sum = fmaf(x[t][r].y, y[t][s].y, sum);
                    sum = fmaf(x[t][r].z, y[t][s].z, sum);
                    acc[r][s] = fmaf(x[t][r].w, y[t][s].w, sum);
                }
    }

    // The 32 lanes hold sums over different k: a butterfly over all of them.
    for (int mask = 1; mask < 32; mask <<= 1)
#pragma unroll
        for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
            for (int s = 0; s < kRows; ++s) acc[r][s] += __shfl_xor_sync(0xffffffffu, acc[r][s], mask);
    if (lane == 0)
#pragma unroll
        for (int r = 0; r < kRowsPerWarp; ++r)
#pragma unroll
            for (int s = 0; s < kRows; ++s) block_sums[(warp * kRowsPerWarp + r) * kRows + s] = acc[r][s];
    __syncthreads();
    const int64_t row_block = column_block(v) * kRowsPerBlock;
    write_sums<kRows>(v, block_sums, kRowsPerBlock * kRows, [&](int o, int* s, int64_t* at_l) {
        *s = o % kRows;
        *at_l = row_block + o / kRows;
    });
}

// The launch's shape, from g alone.
struct Plan {
    bool small_m;  // S = M (Y = op(A)), else S = N and C is computed transposed
    XRows x;
    YRows y;
    int S, L;
    int lane_quads;  // X along L
    int s_groups;
    int64_t column_blocks;  // per group of Y's rows
    int splits;   // K slices
    bool cluster;  // summed within a cluster (else through split-K)
};

int ceil_pow2(int64_t n) {
    int p = 1;
    while (p < n && p < (1 << 30)) p *= 2;
    return p;
}

// How X and Y are stored, and S and L, for g.
Plan layout(const GemmArgs& g) {
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
    return p;
}

// The longest K the kernels take: their k loops count in int, and the last turn's step must not overflow it.
constexpr int kMaxK = INT_MAX - 4 * 32 * kWarps * 2;

// Narrowest piece of a row of X along L that a warp reads per step: 4 quads, two 32-byte sectors.
constexpr int kMinLaneQuads = 4;
// The most slices one cluster sums in shared memory (the portable cluster size).
constexpr int kMaxClusterSlices = 8;
// Shortest K slice worth a block of its own, within a cluster and through split-K's workspace.
constexpr int kMinClusterSliceK = 512, kMinSplitSliceK = 1024;

// Blocks (along L) of X along L with lane_quads l-quads per warp, or of X along K.
int64_t column_blocks(const Plan& p, int lane_quads) {
    const int64_t per_block = p.x == XRows::kAlongL ? int64_t(4) * lane_quads : kRowsPerBlock;
    return (p.L - 1) / per_block + 1;
}

// Rows of Y in groups of the kernel's rows. Blocks as narrow along L as kMinLaneQuads while they are more than a
// wave, wider until they fit one: the fewest blocks that fill a wave stream fastest, and narrow pieces of X's rows
// cost nothing while there are enough of them. K slices for what the blocks leave of the wave
// (rounded down: a count that would start a second, mostly empty wave is not taken), summed by a cluster, or by
// split-K where even a cluster's slices would leave most of the GPU idle (the plan sweep of
// docs/experiments/2026-12-02-streaming.md).
Plan plan(const GemmArgs& g, int sms) {
    Plan p = layout(g);
    const int max_rows = p.x == XRows::kAlongL ? kMaxRowsAlongL : kMaxRowsAlongK;
    p.s_groups = (p.S + max_rows - 1) / max_rows;
    const int64_t wave = int64_t(sms) * kMinBlocksPerSm;
    if (p.x == XRows::kAlongL) {
        const int quads = ceil_pow2((int64_t(p.L) + 3) / 4);
        const int widest = quads < 32 ? quads : 32;
        p.lane_quads = widest < kMinLaneQuads ? widest : kMinLaneQuads;
        while (p.lane_quads < widest && column_blocks(p, p.lane_quads) * p.s_groups > wave) p.lane_quads *= 2;
    }
    p.column_blocks = column_blocks(p, p.lane_quads);
    const int64_t blocks = p.column_blocks * p.s_groups;
    const int64_t wanted = wave / blocks;
    p.cluster = 2 * blocks * kMaxClusterSlices >= wave;
    int64_t splits = p.cluster && wanted > kMaxClusterSlices ? kMaxClusterSlices : wanted;
    const int64_t by_k = g.K / (p.cluster ? kMinClusterSliceK : kMinSplitSliceK);
    if (splits > by_k) splits = by_k;
    if (splits > 65535) splits = 65535;  // grid dimension z
    p.splits = splits < 2 ? 1 : int(splits);
    return p;
}

// The kernel over `splits` slices of k_per_slice, writing to `out`: the slices' products, or C itself where a
// cluster sums them.
mm_status launch_kernel(const GemmArgs& g, const Plan& p, int splits, int k_per_slice, gemm::SliceOutput out,
                        bool cluster_sum, cudaStream_t stream) {
    SkinnyView v{};
    v.S = p.S;
    v.L = p.L;
    v.K = g.K;
    v.X = p.small_m ? g.B : g.A;
    v.ldx = p.small_m ? g.ldb : g.lda;
    v.Y = p.small_m ? g.A : g.B;
    v.ldy = p.small_m ? g.lda : g.ldb;
    v.out = out.base;
    v.out_s = p.small_m ? out.ld : 1;
    v.out_l = p.small_m ? 1 : out.ld;
    v.slice_stride = out.slice_stride;
    v.k_per_slice = k_per_slice;
    v.cluster_sum = cluster_sum;
    v.lane_quads = p.lane_quads;
    v.s_groups = p.s_groups;
    const dim3 grid(unsigned(p.column_blocks * p.s_groups), 1, unsigned(splits));
    const unsigned cluster_z = cluster_sum ? unsigned(splits) : 1u;
    const int rows = (p.S + p.s_groups - 1) / p.s_groups;  // of a group
    const auto launch = [&](auto kernel) {
        return gemm::launch_in_clusters(cluster_z, kernel, grid, kThreads, 0, stream, "skinny", v);
    };
    // The rows of sums for a group's rows, as a compile-time count: 1, 2, 4 or 8, up to kMax.
    const auto with_rows = [&](auto max_rows, auto f) {
        constexpr int kMax = decltype(max_rows)::value;
        if (rows <= 1) return f(std::integral_constant<int, 1>{});
        if (rows <= 2) return f(std::integral_constant<int, 2>{});
        if (kMax == 4 || rows <= 4) return f(std::integral_constant<int, 4>{});
        return f(std::integral_constant<int, kMax>{});
    };
    const bool y_vector = rows_aligned16(v.Y, v.ldy);
    return with_alignment(rows_aligned16(v.X, v.ldx), [&](auto x_vector) {
        return with_alignment(y_vector, [&](auto y_vector_) {
            constexpr bool kXVector = decltype(x_vector)::value, kYVector = decltype(y_vector_)::value;
            const auto for_y = [&](auto row_count, auto y) {
                constexpr int kRows = decltype(row_count)::value;
                constexpr YRows kY = decltype(y)::value;
                if (p.x == XRows::kAlongL) return launch(skinny_along_l<kRows, kY, kXVector, kYVector>);
                if constexpr (kRows <= kMaxRowsAlongK) return launch(skinny_along_k<kRows, kY, kXVector, kYVector>);
                return mm_fail(MM_ERR_INVALID_ARGUMENT, "skinny: %d rows of Y along K (at most %d)", rows,
                               kMaxRowsAlongK);
            };
            const auto for_rows = [&](auto row_count) {
                if (p.y == YRows::kAlongK) return for_y(row_count, std::integral_constant<YRows, YRows::kAlongK>{});
                return for_y(row_count, std::integral_constant<YRows, YRows::kAlongS>{});
            };
            if (p.x == XRows::kAlongL) return with_rows(std::integral_constant<int, kMaxRowsAlongL>{}, for_rows);
            return with_rows(std::integral_constant<int, kMaxRowsAlongK>{}, for_rows);
        });
    });
}

// split-K's slice launcher: slices of ktiles_per_split 4-deep K tiles.
mm_status launch_slices(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                        cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    return launch_kernel(g, plan(g, sms), splits, 4 * ktiles_per_split, out, false, stream);
}

// Whether this GPU runs the kernels' clusters: machine code for sm_90 or later.
bool clusters_run() {
    return gemm::machine_code_of<skinny_along_l<1, YRows::kAlongK, true, true>>() >= 90;
}

bool takes_planned(const GemmArgs& g, int splits) { return splits == 1 && skinny::takes(g); }

// A few slices are summed by their cluster in one launch; more go through split-K's workspace and reduction.
mm_status launch_planned_config(const GemmArgs& g, int /*splits*/, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const Plan p = plan(g, sms);
    if (p.splits > 1 && p.cluster && clusters_run()) {
        const int k_per_slice = int((int64_t(g.K) + 4 * p.splits - 1) / (4 * p.splits) * 4);
        return launch_kernel(g, p, p.splits, k_per_slice, {g.C, g.ldc, 0}, true, stream);
    }
    return gemm::run_split_k(g, p.splits, 4, &launch_slices, stream);
}

}  // namespace

namespace skinny {

bool takes(const GemmArgs& g) {
    const Plan p = layout(g);
    return p.S <= (p.x == XRows::kAlongL ? kMaxSmallSide : kMaxSmallSideAlongK) && g.K <= kMaxK;
}

constinit const gemm::ConfigDesc kPlanned{"skinny",      {kMaxSmallSide, 128, 4}, kMinBlocksPerSm, false,
                                          &takes_planned, &launch_planned_config, &pipelined::k64x64x16};

}  // namespace skinny

// Registry entry point: the planned kernel where C has a small side, else its fallback.
mm_status launch_skinny(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(skinny::kPlanned, g, 1, stream);
}
