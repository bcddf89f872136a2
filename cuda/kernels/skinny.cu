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
// computes C's transpose (Y = op(B)^T, X = op(A)^T) and writes it transposed; but a C of at most 4 x 4 is taken the
// way round that lays X's rows along L where one does (S may then exceed L). Every op combination is read as
// stored. Where the large side is wide (bulk_wide), or Y has more rows than the mainloops below take, and the GPU
// has bulk tensor copies, the bulk mainloop streams X through shared memory, whichever way it is stored, up to 24
// rows of Y (kernels/skinny/bulk_mainloop.cuh); where one block per column would leave SMs idle, K is cut into
// slices (up to 8 slices of a column form a cluster that adds them where every column's cluster fits the GPU at
// once, else they go through split-K), or Y's rows into up to 3 groups, taken by neighbouring blocks, where fewer
// rows per block let enough blocks share the SMs. Elsewhere one of three mainloops that need no copy engine, chosen
// by how X is stored and how many rows Y has:
// - X with its rows along L (B as stored for op_b = N; A for op_a = T): a lane holds S x 4 sums for 4 consecutive
//   l, and takes 4 consecutive k per step: 4 float4 of X (one per row k) and Y(s, k .. k + 3) for every s. A warp's
//   lanes are `lane_quads` l-quads (fastest) by the rest along K, so that a warp reads whole lines of X's rows and
//   the lanes of one k read the same Y, a broadcast. Up to 8 rows of Y (S x 4 sums in registers; 16 rows would
//   overflow them). Where L is at most 4 (one l-quad), a lane's 4 k lie 32 apart instead, so that the lanes of a
//   load read consecutive rows of X rather than rows 4 apart.
// - X with its rows along K (A as stored for op_a = N; B for op_b = T, the weight layout of x @ W^T): a warp takes
//   4 rows of X at once, its 32 lanes side by side along K (512 contiguous bytes of a row per load), and a lane holds
//   4 x S sums; the lanes' sums meet in a shuffle butterfly at the end. Up to 4 rows of Y whose rows may be read
//   16 bytes at a time (each lane reads its own k of Y, so more rows would cost more cache reads than X's stream).
// - X with its rows along K and more rows of Y, or a Y whose rows the lanes cannot read whole: X through shared
//   memory, lanes along L, so that Y is a broadcast again (kernels/skinny/staged_mainloop.cuh). Up to 16 rows of Y.
// With X along L, rows of Y past 8 are cut into up to 4 groups, taken by neighbouring blocks that read the same
// pieces of X at about the same time, the later ones from L2: up to 32 rows of Y.
// The 8 warps of a block take different k (X along L, staged) or different rows (X along K, registers). Where the
// large side cannot fill the GPU, K is also cut into slices across blocks: up to 8 slices form a thread block cluster
// (sm_90), whose blocks add their sums through distributed shared memory and write C in the same launch; a long K
// over a tiny large side takes more slices, through split-K (core/schedule/split_k.h), a workspace and a
// reduction. So do all slices of the configuration kPlannedUnclustered, for a product that runs beside another
// kernel, and all of them where mm_split_k_sums_in_launch(0) bars sums within a launch. Every sum is taken in the
// same order, so the same inputs give the same bits.
//
// Changes vs the tiled rungs: no tile of C; the work is cut along L and K instead of M and N, the large operand goes
// to registers without shared memory wherever its layout allows, and one kernel family takes every op combination.
//
// Parameters: bulk: tiles of 32 k x 128 l, a ring of 6, up to 24 rows of Y rounded up to a multiple of 4.
// Otherwise 256 threads, 2 blocks per SM; a group's rows rounded up to 1, 2, 4 or 8 rows of sums per lane (X along
// L), 1, 2 or 4 (X along K, registers) or 4, 8 or 16 (staged), up to 4 groups; 2 steps in flight per loop turn for up
// to 4 rows, 1 for more, and 4 for the spread-k kernels of 1 or 2 rows (registers).
#include "kernels/skinny.h"

#include <climits>
#include <type_traits>

#include "core/configs/pipelined.h"
#include "core/copy/tensor_map.h"
#include "core/device.h"
#include "core/epilogue/split_k_reduce.h"
#include "core/launch.h"
#include "core/schedule/split_k.h"
#include "kernels/skinny/bulk_mainloop.cuh"
#include "kernels/skinny/register_mainloops.cuh"
#include "kernels/skinny/staged_mainloop.cuh"

namespace {

using namespace skinny;

// The launch's shape, from g alone.
struct Plan {
    bool small_m;  // S = M (Y = op(A)), else S = N and C is computed transposed (takes_c_as_is)
    XRows x;
    YRows y;
    bool staged;  // X along K through shared memory (staged_mainloop.cuh)
    bool bulk;    // X through shared memory by bulk tensor copies (bulk_mainloop.cuh), K slices summed in a cluster
                  // or through split-K (core/schedule/split_k.h's run_split_k_in_clusters)
    int S, L;
    int lane_quads;  // X along L
    int s_groups;
    int rows;  // of a group of Y's rows, rounded up to the kernel's count of rows of sums
    int64_t column_blocks;  // per group of Y's rows
    int splits;   // K slices
    bool cluster;  // summed within a cluster (else through split-K)
};

// Blocks of one K slice (grid x): one per block along L and group of Y's rows, the group fastest.
int64_t slice_blocks(const Plan& p) { return p.column_blocks * p.s_groups; }

int ceil_pow2(int64_t n) {
    int p = 1;
    while (p < n && p < (1 << 30)) p *= 2;
    return p;
}

// A C whose sides are both at most this is one l-quad wide either way round: its large operand is a few long vectors.
constexpr int kTinySide = 4;

// Whether the kernel takes C as it is (S = M), else its transpose: the smaller side as S; but for a C of at most
// kTinySide x kTinySide, the way round in which X's rows lie along L, where one does, since only the mainloop along
// L spreads a lane's k (the one along K gives each of a block's warps its own rows of X, most of them past L).
bool takes_c_as_is(const GemmArgs& g) {
    if (g.M <= kTinySide && g.N <= kTinySide) {
        if (g.op_b == MM_OP_N) return true;   // X = op(B), rows along L
        if (g.op_a == MM_OP_T) return false;  // X = op(A)^T, rows along L
    }
    return g.M <= g.N;
}

// How X and Y are stored, and S and L, for g.
Plan layout(const GemmArgs& g) {
    Plan p{};
    p.small_m = takes_c_as_is(g);
    p.S = p.small_m ? g.M : g.N;
    p.L = p.small_m ? g.N : g.M;
    if (p.small_m) {
        p.x = g.op_b == MM_OP_N ? XRows::kAlongL : XRows::kAlongK;
        p.y = g.op_a == MM_OP_N ? YRows::kAlongK : YRows::kAlongS;
    } else {
        p.x = g.op_a == MM_OP_N ? XRows::kAlongK : XRows::kAlongL;
        p.y = g.op_b == MM_OP_N ? YRows::kAlongS : YRows::kAlongK;
    }
    // The register mainloop along K reads Y's rows for each lane's k as whole 16-byte vectors (Y along K, or S a
    // multiple of 4 along S) or as single elements (S = 1); any other Y goes to the staged mainloop.
    const bool y_vector = p.small_m ? rows_aligned16(g.A, g.lda) : rows_aligned16(g.B, g.ldb);
    const bool y_whole = y_vector && (p.y == YRows::kAlongK || p.S == 1 || p.S % 4 == 0);
    p.staged = p.x == XRows::kAlongK && (p.S > kMaxRowsAlongK || !y_whole);
    return p;
}

// The longest K the kernels take: their k loops count in int, and the last turn's step must not overflow it.
constexpr int kMaxK = INT_MAX - 4 * 32 * kWarps * 2;

// Narrowest piece of a row of X along L that a warp reads per step: 4 quads, two 32-byte sectors.
constexpr int kMinLaneQuads = 4;
using gemm::kMaxClusterSlices;  // the most slices one cluster sums in shared memory
// Shortest K slice worth a block of its own, within a cluster and through split-K's workspace.
constexpr int kMinClusterSliceK = 512, kMinSplitSliceK = 1024;

// The bulk mainloop's shape: a ring of kBulkStages slots, one block per SM promised (two fit where its sums leave the
// registers for them); and its kernel.
constexpr int kBulkStages = 6;
template <XRows kX, int kRows>
using BulkShapeOf = BulkShape<kX, kRows, kBulkStages>;
template <XRows kX, int kRows, YRows kY>
constexpr auto kBulkKernel = &skinny_bulk<BulkShapeOf<kX, kRows>, kY>;
using BulkTile = BulkShapeOf<XRows::kAlongL, 4>;  // the tile, which every row count shares

// The bulk mainloop streams where the large side spans at least kBulkMinColumnsPct% of the SMs in 128-wide
// columns and either one K slice per block covers kBulkOneSlicePct% of the SMs' block slots (the columns alone, or,
// from kBulkGroupMinKTiles tiles of K, the columns times groups of Y's rows small enough for more blocks per SM), or
// X lies along L and Y has more rows than the register mainloop there keeps two steps in flight for. It also streams
// narrower large sides with X along L where Y has more rows than that register mainloop takes at once (it would
// read X once per group of rows), where K slices few enough for one cluster fill kBulkOneSlicePct% of the slots.
// Elsewhere the register mainloops stream as fast or faster. It takes up to kBulkMaxRows rows of Y: past that, FMAs
// rather than bytes bound it, and the tiled configurations win. Where one slice per column covers kBulkOneSlicePct%
// of the SMs, slices would cost more than the idle SMs; below that, K is cut into slices for as many blocks as the
// SMs hold at once, none shorter than kBulkMinSliceTiles tiles (docs/experiments/2026-12-02-bulk-skinny.md), or Y's
// rows into up to kBulkMaxGroups groups where those fill kBulkGroupGainPct% of what the slices fill, each group a
// pass over X, the later ones from L2 (docs/experiments/2026-12-06-bulk-groups.md).
constexpr int kBulkMinColumnsPct = 30, kBulkOneSlicePct = 60, kBulkMinSliceTiles = 16, kBulkMaxRows = 24;
constexpr int kBulkMaxGroups = 3, kBulkGroupGainPct = 110, kBulkGroupMinKTiles = 32;

// Whether the register and staged mainloops take p's small side.
bool registers_take(const Plan& p) { return p.S <= (p.x == XRows::kAlongL ? kMaxSmallSide : kMaxSmallSideAlongK); }

// Whether the bulk mainloop can run g as laid out in p: this GPU and build run bulk tensor copies, X's rows suit
// them, and Y has at most kBulkMaxRows rows.
bool bulk_runs(const GemmArgs& g, const Plan& p) {
    const float* const x = p.small_m ? g.B : g.A;
    const int64_t ldx = p.small_m ? g.ldb : g.lda;
    return p.S <= kBulkMaxRows && gemm::bulk_copy_takes_rows(x, ldx) &&
           gemm::require_bulk_copy(gemm::machine_code_of<kBulkKernel<XRows::kAlongL, 4, YRows::kAlongK>>(), "",
                                   true) == MM_OK;
}

int64_t bulk_columns(const Plan& p) { return (int64_t(p.L) - 1) / BulkTile::kTileL + 1; }

// f(kernel, smem_bytes), both std::integral_constant: the bulk kernel for p's layout and rows of Y (rounded up to a
// multiple of 4) and the shared memory it asks for.
template <class F>
decltype(auto) with_bulk_kernel(const Plan& p, F&& f) {
    const auto with_rows = [&](auto x, auto y) -> decltype(auto) {
        const auto take = [&](auto rows) -> decltype(auto) {
            constexpr XRows kX = decltype(x)::value;
            constexpr int kRows = decltype(rows)::value;
            using Kernel = decltype(kBulkKernel<kX, kRows, decltype(y)::value>);
            return f(std::integral_constant<Kernel, kBulkKernel<kX, kRows, decltype(y)::value>>{},
                     std::integral_constant<int, BulkShapeOf<kX, kRows>::kSmemBytes>{});
        };
        if (p.rows <= 4) return take(std::integral_constant<int, 4>{});
        if (p.rows <= 8) return take(std::integral_constant<int, 8>{});
        if (p.rows <= 12) return take(std::integral_constant<int, 12>{});
        if (p.rows <= 16) return take(std::integral_constant<int, 16>{});
        if (p.rows <= 20) return take(std::integral_constant<int, 20>{});
        return take(std::integral_constant<int, kBulkMaxRows>{});
    };
    const auto with_y = [&](auto x) -> decltype(auto) {
        if (p.y == YRows::kAlongK) return with_rows(x, std::integral_constant<YRows, YRows::kAlongK>{});
        return with_rows(x, std::integral_constant<YRows, YRows::kAlongS>{});
    };
    if (p.x == XRows::kAlongL) return with_y(std::integral_constant<XRows, XRows::kAlongL>{});
    return with_y(std::integral_constant<XRows, XRows::kAlongK>{});
}

// How many blocks of the bulk kernel for p's rows of Y an SM holds at once (1 where the runtime cannot say).
int bulk_blocks_per_sm(const Plan& p) {
    return with_bulk_kernel(p, [](auto kernel, auto smem_bytes) {
        int n = 0;
        if (gemm::resident_blocks_per_sm<kernel.value, kThreads, smem_bytes.value>(&n) != MM_OK) {
            cudaGetLastError();  // not sticky; the plan falls back to one block per SM
            return 1;
        }
        return n < 1 ? 1 : n;
    });
}

// p with Y's rows in `groups` groups of the bulk kernel's rows (neighbouring blocks, which read the same tiles of X
// at about the same time, the later ones from L2).
Plan with_bulk_groups(Plan p, int groups) {
    p.s_groups = groups;
    p.rows = (p.S + groups - 1) / groups;
    return p;
}

// The block slots of the SMs, one wave, that the bulk kernel for p's rows of Y fills with `blocks` blocks, in
// hundredths (0 where they need a second wave).
int64_t bulk_fill_pct(const Plan& p, int64_t blocks, int sms) {
    const int64_t slots = int64_t(sms) * bulk_blocks_per_sm(p);
    return blocks > slots ? 0 : blocks * 100 / slots;
}

// The count of groups of Y's rows, 2 to kBulkMaxGroups, whose blocks, one K slice each, fill the most of the SMs'
// block slots in one wave (fewer rows of sums per block let more blocks share an SM); 1 where none fills
// kBulkOneSlicePct%. A count that leaves as many rows of sums per block as fewer groups is not taken.
int bulk_groups(const Plan& p, int sms) {
    const int64_t columns = bulk_columns(p);
    int chosen = 1;
    int64_t chosen_pct = kBulkOneSlicePct - 1;
    for (int groups = 2, rows = p.S; groups <= kBulkMaxGroups && 4 * (groups - 1) < p.S; ++groups) {
        const Plan q = with_bulk_groups(p, groups);
        if ((q.rows + 3) / 4 == (rows + 3) / 4) continue;
        rows = q.rows;
        const int64_t pct = bulk_fill_pct(q, columns * groups, sms);
        if (pct > chosen_pct) {
            chosen = groups;
            chosen_pct = pct;
        }
    }
    return chosen;
}

// K slices of the bulk mainloop over all of Y's rows.
int bulk_splits(const Plan& p, const GemmArgs& g, int sms) {
    const int64_t columns = bulk_columns(p);
    if (columns * 100 >= int64_t(kBulkOneSlicePct) * sms) return 1;
    const int64_t by_k = tiles_of(g.K, BulkTile::kTileK) / kBulkMinSliceTiles;
    int64_t splits = int64_t(sms) * bulk_blocks_per_sm(p) / columns;
    if (splits > by_k) splits = by_k;
    return splits < 2 ? 1 : int(splits);
}

// Whether K slices of the bulk mainloop over all of Y's rows, few enough for a cluster to sum, fill
// kBulkOneSlicePct% of the SMs' block slots.
bool bulk_slices_fill(const Plan& p, const GemmArgs& g, int sms) {
    const Plan all_rows = with_bulk_groups(p, 1);
    const int splits = bulk_splits(all_rows, g, sms);
    return splits <= kMaxClusterSlices &&
           bulk_fill_pct(all_rows, bulk_columns(p) * splits, sms) >= kBulkOneSlicePct;
}

// Whether the bulk mainloop beats the register mainloops on p's large side (the rule above).
bool bulk_wide(const Plan& p, const GemmArgs& g, int sms) {
    const int64_t columns = bulk_columns(p);
    if (p.x == XRows::kAlongL && p.S > kMaxRowsAlongL && bulk_slices_fill(p, g, sms)) return true;
    return columns * 100 >= int64_t(kBulkMinColumnsPct) * sms &&
           (columns * 100 >= int64_t(kBulkOneSlicePct) * sms ||
            (p.x == XRows::kAlongL && p.S > kMaxRowsInTwoSteps) ||
            (tiles_of(g.K, BulkTile::kTileK) >= kBulkGroupMinKTiles && bulk_groups(p, sms) > 1));
}

// Whether the bulk mainloop, rather than a register or staged one, runs g as laid out in p.
bool runs_bulk(const GemmArgs& g, const Plan& p, int sms) {
    return bulk_runs(g, p) && (!registers_take(p) || bulk_wide(p, g, sms));
}

// The bulk plan: K slices over all of Y's rows, or groups of Y's rows where their blocks fill kBulkGroupGainPct% of
// the slots that the slices' blocks fill. Both put idle SMs to work: slices at the cost of adding them up, groups
// at the cost of reading X again from L2, and of rows of sums past S where the groups do not divide it.
Plan bulk_planned(Plan p, const GemmArgs& g, int sms) {
    p.staged = false;
    p.column_blocks = bulk_columns(p);
    p = with_bulk_groups(p, 1);
    p.splits = bulk_splits(p, g, sms);
    const Plan grouped = with_bulk_groups(p, bulk_groups(p, sms));
    if (grouped.s_groups > 1 && bulk_fill_pct(grouped, slice_blocks(grouped), sms) * 100 >
                                    bulk_fill_pct(p, slice_blocks(p) * p.splits, sms) * kBulkGroupGainPct) {
        p = grouped;
        p.splits = 1;
    }
    return p;
}

// Blocks (along L) of X along L with lane_quads l-quads per warp, or of X along K.
int64_t column_blocks(const Plan& p, int lane_quads) {
    const int64_t per_block = p.x == XRows::kAlongL ? int64_t(4) * lane_quads
                              : p.staged            ? kStagedBlockRows
                                                    : kRowsPerBlock;
    return (p.L - 1) / per_block + 1;
}

// Rows of Y in groups of the kernel's rows. Blocks as narrow along L as kMinLaneQuads while they are more than a
// wave, wider until they fit one: the fewest blocks that fill a wave stream fastest, and narrow pieces of X's rows
// cost nothing while there are enough of them. K slices for what the blocks leave of the wave
// (rounded down: a count that would start a second, mostly empty wave is not taken), summed by a cluster, or by
// split-K where even a cluster's slices would leave most of the GPU idle (the plan sweep of
// docs/experiments/2026-12-02-streaming.md). The staged mainloop's wave is one block per SM
// (docs/experiments/2026-12-02-staged-skinny.md).
Plan planned(Plan p, const GemmArgs& g, int sms) {
    p.bulk = runs_bulk(g, p, sms);
    if (p.bulk) return bulk_planned(p, g, sms);
    const int max_rows = p.x == XRows::kAlongL ? kMaxRowsAlongL : p.staged ? kMaxSmallSideAlongK : kMaxRowsAlongK;
    p.s_groups = (p.S + max_rows - 1) / max_rows;
    p.rows = ceil_pow2((p.S + p.s_groups - 1) / p.s_groups);
    if (p.staged && p.rows < kMinStagedRows) p.rows = kMinStagedRows;
    const int64_t wave = int64_t(sms) * (p.staged ? 1 : kMinBlocksPerSm);  // staged: a block per SM
    if (p.x == XRows::kAlongL) {
        const int quads = ceil_pow2((int64_t(p.L) + 3) / 4);
        const int widest = quads < 32 ? quads : 32;
        p.lane_quads = widest < kMinLaneQuads ? widest : kMinLaneQuads;
        while (p.lane_quads < widest && column_blocks(p, p.lane_quads) * p.s_groups > wave) p.lane_quads *= 2;
    }
    p.column_blocks = column_blocks(p, p.lane_quads);
    const int64_t blocks = slice_blocks(p);
    const int64_t wanted = wave / blocks;
    p.cluster = 2 * blocks * kMaxClusterSlices >= wave;
    int64_t splits = p.cluster && wanted > kMaxClusterSlices ? kMaxClusterSlices : wanted;
    const int64_t by_k = g.K / (p.cluster ? kMinClusterSliceK : kMinSplitSliceK);
    if (splits > by_k) splits = by_k;
    if (splits > 65535) splits = 65535;  // grid dimension z
    p.splits = splits < 2 ? 1 : int(splits);
    return p;
}

// The launch's shape for g: its layout, planned.
Plan plan(const GemmArgs& g, int sms) { return planned(layout(g), g, sms); }

// f(std::integral_constant<int, R>{}) for R the least power of two from kRows up that is at least rows, at most
// kMax: a count of rows of sums as a template argument.
template <int kRows, int kMax, class F>
mm_status with_rows(int rows, F&& f) {
    if constexpr (kRows < kMax)
        if (rows > kRows) return with_rows<2 * kRows, kMax>(rows, f);
    return f(std::integral_constant<int, kRows>{});
}

// The kernel's view of g under plan p, its slices of k_per_slice written to `out` (summed by their cluster where
// cluster_sum).
SkinnyView view_of(const GemmArgs& g, const Plan& p, int k_per_slice, gemm::SliceOutput out, bool cluster_sum) {
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
    return v;
}

// The kernel over `splits` slices of k_per_slice, writing to `out`: the slices' products, or C itself where a
// cluster sums them.
mm_status launch_kernel(const GemmArgs& g, const Plan& p, int splits, int k_per_slice, gemm::SliceOutput out,
                        bool cluster_sum, cudaStream_t stream) {
    const SkinnyView v = view_of(g, p, k_per_slice, out, cluster_sum);
    const dim3 grid(unsigned(slice_blocks(p)), 1, unsigned(splits));
    const unsigned cluster_z = cluster_sum ? unsigned(splits) : 1u;
    const auto launch = [&](auto kernel, int smem_bytes) {
        return gemm::launch_in_clusters(cluster_z, kernel, grid, kThreads, smem_bytes, stream, "skinny", v);
    };
    const auto for_y = [&](auto f) {
        if (p.y == YRows::kAlongK) return f(std::integral_constant<YRows, YRows::kAlongK>{});
        return f(std::integral_constant<YRows, YRows::kAlongS>{});
    };
    return with_alignment(rows_aligned16(v.X, v.ldx), [&](auto x_vector) {
        constexpr bool kXVector = decltype(x_vector)::value;
        if (p.staged) {
            return for_y([&](auto y) {
                return with_rows<kMinStagedRows, kMaxSmallSideAlongK>(p.rows, [&](auto row_count) {
                    constexpr int kRows = decltype(row_count)::value;
                    constexpr auto kernel = skinny_staged_along_k<StagedShape<kRows>, decltype(y)::value, kXVector>;
                    constexpr int kSmemBytes = StagedShape<kRows>::kSmemBytes;
                    MM_TRY(gemm::allow_shared_memory<kernel>(kSmemBytes, "skinny: shared memory"));
                    return launch(kernel, kSmemBytes);
                });
            });
        }
        if (p.x == XRows::kAlongK)  // Y aligned, else staged
            return for_y([&](auto y) {
                return with_rows<1, kMaxRowsAlongK>(p.rows, [&](auto row_count) {
                    return launch(skinny_along_k<decltype(row_count)::value, decltype(y)::value, kXVector>, 0);
                });
            });
        return with_alignment(rows_aligned16(v.Y, v.ldy), [&](auto y_vector) {
            return for_y([&](auto y) {
                constexpr YRows kY = decltype(y)::value;
                constexpr bool kYVector = decltype(y_vector)::value;
                if (p.lane_quads == 1)  // L at most 4, and so S: a lane's k spread out
                    return with_rows<1, kMaxRowsInTwoSteps>(p.rows, [&](auto row_count) {
                        return launch(skinny_along_l<decltype(row_count)::value, kY, kXVector, kYVector, true>, 0);
                    });
                return with_rows<1, kMaxRowsAlongL>(p.rows, [&](auto row_count) {
                    return launch(skinny_along_l<decltype(row_count)::value, kY, kXVector, kYVector>, 0);
                });
            });
        });
    });
}

// The bulk mainloop over `splits` slices of ktiles_per_split tiles of X, writing to `out`: the slices' products, or C
// itself where each column's slices form a cluster that sums them.
mm_status launch_bulk(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out, bool cluster_sum,
                      cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const Plan p = plan(g, sms);
    const SkinnyView v = view_of(g, p, BulkTile::kTileK * ktiles_per_split, out, cluster_sum);
    CUtensorMap x_map;
    if (p.x == XRows::kAlongL)
        MM_TRY(gemm::encode_row_major_map(v.X, v.K, v.L, v.ldx, BulkTile::kTileK, BulkTile::kTileL, &x_map, "X"));
    else
        MM_TRY(gemm::encode_k_major_map(v.X, v.L, v.K, v.ldx, BulkTile::kTileL, BulkTile::kTileK, &x_map, "X"));
    const dim3 grid(unsigned(slice_blocks(p)), 1, unsigned(splits));
    return with_bulk_kernel(p, [&](auto kernel, auto smem_bytes) {
        MM_TRY(gemm::allow_shared_memory<kernel.value>(smem_bytes.value, "skinny: shared memory"));
        return gemm::launch_in_clusters(cluster_sum ? unsigned(splits) : 1u, kernel.value, grid, kThreads,
                                        smem_bytes.value, stream, "skinny", x_map, v);
    });
}

// split-K's slice launcher for the bulk mainloop.
mm_status launch_bulk_slices(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                             cudaStream_t stream) {
    return launch_bulk(g, splits, ktiles_per_split, out, false, stream);
}

// split-K's cluster launcher for the bulk mainloop: each column's slices one cluster, which writes C.
mm_status launch_bulk_clusters(const GemmArgs& g, int splits, int ktiles_per_split, cudaStream_t stream) {
    return launch_bulk(g, splits, ktiles_per_split, {g.C, g.ldc, 0}, true, stream);
}

// Whether every column's cluster of `splits` bulk blocks runs at once on this GPU, where the workspace's reduction
// would add the slices in one run (write_sums adds a cluster's slices in one chain, so both paths give the same bits).
mm_status bulk_clusters_fit(const GemmArgs& g, int splits, bool* fit) {
    *fit = false;
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    if (gemm::slice_order_runs(g.M, g.N, splits, sms) != 1) return MM_OK;
    const Plan p = plan(g, sms);
    return with_bulk_kernel(p, [&](auto kernel, auto smem_bytes) {  // sm_90 code: bulk_runs asked it
        MM_TRY(gemm::allow_shared_memory<kernel.value>(smem_bytes.value, "skinny: shared memory"));
        int clusters = 0;
        MM_TRY((gemm::max_active_clusters<kernel.value, gemm::kMaxClusterSlices, 0>(splits, 0, kThreads,
                                                                                     smem_bytes.value, &clusters)));
        *fit = int64_t(clusters) >= slice_blocks(p);
        return MM_OK;
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

// split-K's cluster launcher for the streaming mainloops: each block's slices one cluster along z, which writes C.
mm_status launch_clusters(const GemmArgs& g, int splits, int ktiles_per_split, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    return launch_kernel(g, plan(g, sms), splits, 4 * ktiles_per_split, {g.C, g.ldc, 0}, true, stream);
}

// The plan keeps the streaming mainloops' clustered slices to one wave of kMinBlocksPerSm blocks per SM (planned);
// this does not ask the GPU how many of their clusters fit at once: they run as clusters wherever clusters run.
mm_status clusters_fit(const GemmArgs&, int, bool* fit) {
    *fit = clusters_run();
    return MM_OK;
}

bool takes_planned(const GemmArgs& g, int splits) { return splits == 1 && skinny::takes(g); }

// The plan's launch. A few slices are summed by their cluster in one launch where `clusters`; more, or any where
// not, go through split-K's workspace and reduction.
mm_status launch_plan(const GemmArgs& g, bool clusters, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const Plan p = plan(g, sms);
    if (p.bulk && clusters)
        return gemm::run_split_k_in_clusters(g, p.splits, BulkTile::kTileK, &launch_bulk_slices, &launch_bulk_clusters,
                                             &bulk_clusters_fit, stream);
    if (p.bulk) return gemm::run_split_k(g, p.splits, BulkTile::kTileK, &launch_bulk_slices, stream);
    if (p.cluster && clusters)
        return gemm::run_split_k_in_clusters(g, p.splits, 4, &launch_slices, &launch_clusters, &clusters_fit, stream);
    return gemm::run_split_k(g, p.splits, 4, &launch_slices, stream);
}

mm_status launch_planned_config(const GemmArgs& g, int /*splits*/, cudaStream_t stream) {
    return launch_plan(g, true, stream);
}

mm_status launch_unclustered_config(const GemmArgs& g, int /*splits*/, cudaStream_t stream) {
    return launch_plan(g, false, stream);
}

// The kernel with its own plan as a configuration, launched by `launch`.
constexpr gemm::ConfigDesc planned_config(const char* name, mm_status (*launch)(const GemmArgs&, int, cudaStream_t)) {
    return {.name = name,
            .block = {kMaxSmallSide, 128, 4},
            .blocks_per_sm = kMinBlocksPerSm,
            .splits_k = false,
            .can_run = &takes_planned,
            .launch = launch,
            .fallback = &pipelined::k64x64x16,
            .reads_op_t_b = true,
            .streams = true};
}

}  // namespace

namespace skinny {

bool takes(const GemmArgs& g) {
    const Plan p = layout(g);
    return (registers_take(p) || bulk_runs(g, p)) && g.K <= kMaxK;
}

bool streams_in_bulk(const GemmArgs& g, int sms) { return g.K <= kMaxK && runs_bulk(g, layout(g), sms); }

constinit const gemm::ConfigDesc kPlanned = planned_config("skinny", &launch_planned_config);
constinit const gemm::ConfigDesc kPlannedUnclustered = planned_config("skinny unclustered", &launch_unclustered_config);

}  // namespace skinny

// Registry entry point: the planned kernel where C has a small side, else its fallback.
mm_status launch_skinny(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(skinny::kPlanned, g, 1, stream);
}
