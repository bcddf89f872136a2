// best: per-shape choice among the skinny and shortk kernels and the streamk, tma and pipelined configurations with
// split-K, the top rung.
//
// Technique: no new kernel; a dispatcher that decides from features of the shape, through tables that the tuner
// (`python -m matmul_opt.tune`) measures and writes (best_table.h):
// - a long K over a small C (K from kLongKMin, M*N per SM up to kLongKMaxMnPerSm): few output tiles, so the
//   configurations that split K fill the GPU whatever their tile, and what differs is how much of each tile C
//   fills and how fast the tile streams: best takes the one whose tiles, padded to cover C, take the least time at
//   the rate the tuner measures for it on a C that every tile divides (the skinny kernel for the smallest C). A C
//   that one longk tile covers goes to the longk kernel, which fills the GPU along K alone, unless its smaller
//   side is so small (up to kLongkMinSmallSide) that the skinny kernel, which streams the operand that side
//   leaves large, wins; where both sides are small (up to kLongkTinyMaxSide), neither operand is large and the
//   longk kernel keeps C up to the longest K per SM at which the tuner measured it winning (kLongkTinyMaxKPerSm):
//   its time grows with K per SM, and past that the skinny kernel may win. A C with a side the next rule gives the
//   skinny kernel against a side past longk's tile is not a small C but a small side: one row against tens of
//   thousands of columns at a long K has few outputs per SM, yet its large operand, not its tiles, sets its time;
// - a small side: C with at most kSkinnyMaxRows rows (kSkinnyMaxColumns columns) reads its large operand once and
//   is bound by HBM bandwidth; the skinny kernel streams it with every SM; so it does for a small side of up to 24
//   where the large side is wide enough for its bulk mainloop (skinny::streams_in_bulk);
// - a very short K (up to kShortkMaxK, where the shortk kernel wins the tuner's sweep): writing C is the cost, and
//   the shortk kernel streams C out while it computes;
// - a panel: C with a few dozen to a few hundred rows or columns against a side at least kPanelMinAspect times
//   longer, where square tiles would be mostly empty: the panel rows name a tile of a matching height for each
//   range of K, each range of the small side and each orientation (the tile that streams a long K best can lose at
//   a short one). A small C with no short side (a few hundred rows and columns) is not a panel: it has few tiles
//   of any shape, which the table by output elements per SM and the split-K rule are made for;
// - otherwise the cost of a tiled GEMM is dominated by (a) the per-tile efficiency of the configuration (bigger
//   tiles: fewer bytes per FLOP and more FMAs per shared load; bulk tensor copies where the hardware has them) and
//   (b) wave quantisation and occupancy (a shape that yields fewer tiles than SMs leaves SMs idle; stream-K shares a
//   ragged last wave out by K). Both depend mainly on how many output elements each SM gets, M*N / SMs, so a table
//   maps that number to a configuration; a short K (a rank-k update, whose cost is writing C) has a table of its own.
//   Normalising by the SM count keeps the tables meaningful on GPUs other than the one they were tuned on. A second
//   rule steps down to smaller tiles while the chosen ones leave too ragged a last wave (tiles just past a multiple
//   of the SM count), or, where they make many waves, shares the same tile's last wave out by K.
// When the chosen tiled configuration (pipelined or tma) leaves SMs idle and K is long, K is split
// (core/schedule/split_k.h).
// Ragged edge: where the last row (column) of the chosen tiles holds only a few rows (columns) of C, so few that
// the skinny kernel takes them, best may cut them off: the bulk that whole tiles cover runs as its own product
// (chosen anew) and each edge as a skinny one, which reads the operand it spans once, on a side stream beside the
// bulk (core/schedule/beside.h), where its blocks take the SMs that the bulk's last blocks leave idle (its K slices
// summed through the workspace, not in clusters, which would wait for SMs of one GPC to free up). A model of
// the busiest SM's tile FMAs against the edges' launches and bytes decides (ragged_cut): the cut pays where the
// padded tiles cost a wave or a share of one, and not where the bulk needs as many waves as C.
// Where the copy engine cannot take the operands (no sm_90, unaligned operands), every bulk-copy configuration
// runs as its fallback, the pipelined kernel of the same tile.
//
// Every configuration and fallback takes the four op combinations as stored (each is instantiated per layout of
// A and B). best reads A and B as stored for N·N, T·N and T·T, and for N·T wherever the configuration says it
// reads such a B as stored (ConfigDesc::reads_op_t_b: the skinny and shortk kernels). For N·T (B stored N x K)
// every tiled configuration would transpose both tiles in shared memory at every k-step, and one transposition pass
// over B on the GPU (2·K·N·4 bytes, into a stream-ordered workspace) followed by the N·N configuration measures
// faster at every size tried: docs/experiments/2026-12-01-native-op-t.md.
// A configuration forced by the tuner runs the combination as given.
//
// Changes vs skinny/shortk/streamk/tma/pipelined/splitk: none in the kernels; the launcher reads the SM count
// (cached per device) and the tables, and may run a product as a bulk and, beside it, up to two edges, each with
// its own launches.
#include "kernels/best.h"

#include <atomic>
#include <cmath>
#include <cstring>

#include "core/configs/pipelined.h"
#include "core/device.h"
#include "core/layout/rearrange.h"
#include "core/schedule/beside.h"
#include "core/schedule/split_k.h"
#include "kernels/best_table.h"
#include "kernels/longk.h"
#include "kernels/shortk.h"
#include "kernels/skinny.h"
#include "kernels/streamk.h"
#include "kernels/tma.h"

using gemm::ConfigDesc;

namespace {

// Every configuration best may run, in the tuner's order.
const ConfigDesc* const kCatalogue[] = {
    &pipelined::k128x256x16, &pipelined::k128x128x16, &pipelined::k128x64x16,  &pipelined::k64x64x16,
    &tma::k128x256x32,       &tma::k128x128x16,       &tma::k128x64x32,        &tma::k128x256x32k16,
    &streamk::k128x256x32,   &streamk::k128x128x16,   &streamk::k128x256x32Tail3,
    &pipelined::k32x128x16,  &pipelined::k128x32x16,  &pipelined::k64x128x16,  &skinny::kPlanned,
    &shortk::kConfig,        &longk::kPlanned,
};
constexpr int kCatalogueSize = int(sizeof(kCatalogue) / sizeof(kCatalogue[0]));

// Where best goes when a configuration would waste more than 100 - kMinWaveEfficiencyPct percent of its last
// wave (efficiency = blocks / (ceil(blocks / SMs) * SMs), blocks = tiles x the split-K rule's K slices: a shape
// whose blocks run just past a whole number of waves, or too few of them where K is too short to split):
// a smaller tile, whose more numerous tiles fill the waves more evenly. The bulk-copy tiles go to streamk 128x128x16,
// which shares the last wave out by K: from 128x256 directly, since there the smaller bulk-copy tiles are slower
// than stream-K (docs/experiments/2026-12-02-staged-skinny.md), and from 128x64. So does the cp.async 128x256 tile
// where K is past the short-K table; at a short K, whose cost is writing C, stream-K's pieces of K are too short to
// pay, and it goes to 128x64 (where the copy engine cannot run, streamk's fallback steps on down from 128x128). The
// streamk configurations, and the smallest tiles, have no step-down.
// Where the tiles make many waves (kManyWaves or more, past the short-K table), one ragged wave is a small share of
// the whole, and the same tile shared out by K beats a smaller one: tma 128x256x32 goes to streamk 128x256x32 tail3
// while its last wave is less than kManyWavesMinEfficiencyPct full (docs/experiments/2026-12-03-mid-size.md).
struct StepDown {
    const ConfigDesc* from;
    const ConfigDesc* to;
    const ConfigDesc* to_past_short_k = nullptr;  // where K is past the short-K table, if not `to`
    const ConfigDesc* over_many_waves = nullptr;  // the same tile shared out by K, where the tiles make many waves
};
constexpr StepDown kStepDowns[] = {
    {&pipelined::k128x256x16, &pipelined::k128x64x16, &streamk::k128x128x16},
    {&pipelined::k128x128x16, &pipelined::k128x64x16},
    {&pipelined::k128x64x16, &pipelined::k64x64x16},
    {&tma::k128x256x32, &streamk::k128x128x16, nullptr, &streamk::k128x256x32Tail3},
    {&tma::k128x256x32k16, &streamk::k128x128x16},
    {&tma::k128x128x16, &tma::k128x64x32},
    {&tma::k128x64x32, &streamk::k128x128x16},
};
constexpr int kMinWaveEfficiencyPct = 85;
constexpr int kManyWaves = 3, kManyWavesMinEfficiencyPct = 94;

// Split-K is considered from this K on (with core/schedule/split_k.h's policy), for configurations that split.
constexpr int kSplitMinK = 512;

constexpr const StepDown* step_down_entry(const ConfigDesc* config) {
    for (const StepDown& s : kStepDowns)
        if (s.from == config) return &s;
    return nullptr;
}

constexpr const ConfigDesc* step_down(const ConfigDesc* config, bool past_short_k) {
    const StepDown* s = step_down_entry(config);
    if (s == nullptr) return nullptr;
    return past_short_k && s->to_past_short_k != nullptr ? s->to_past_short_k : s->to;
}

constexpr const ConfigDesc* over_many_waves(const ConfigDesc* config) {
    const StepDown* s = step_down_entry(config);
    return s == nullptr ? nullptr : s->over_many_waves;
}

constexpr bool step_downs_end() {
    for (const bool past_short_k : {false, true})
        for (const StepDown& s : kStepDowns) {
            const ConfigDesc* at = s.from;
            for (int steps = 0; at != nullptr; ++steps, at = step_down(at, past_short_k))
                if (steps > int(sizeof(kStepDowns) / sizeof(kStepDowns[0]))) return false;
        }
    return true;
}

template <size_t kCount>
constexpr bool rows_sorted(const best_table::Row (&rows)[kCount]) {
    for (size_t i = 1; i < kCount; ++i)
        if (rows[i].max_mn_per_sm < rows[i - 1].max_mn_per_sm) return false;
    return true;
}

// Sorted by K's bound, then within one K by the small side's; the last K's rows open (INT_MAX).
template <size_t kCount>
constexpr bool panels_sorted(const best_table::PanelRow (&rows)[kCount]) {
    for (size_t i = 1; i < kCount; ++i) {
        if (rows[i].max_k < rows[i - 1].max_k ||
            (rows[i].max_k == rows[i - 1].max_k && rows[i].max_small_side <= rows[i - 1].max_small_side))
            return false;
    }
    return rows[kCount - 1].max_k == INT_MAX;
}

static_assert(step_downs_end(), "a step-down chain of best loops");
static_assert(rows_sorted(best_table::kRows) && rows_sorted(best_table::kShortKRows) &&
                  panels_sorted(best_table::kPanelRows),
              "best_table.h: rows unsorted (rerun the tuner)");
static_assert(best_table::kRows[sizeof(best_table::kRows) / sizeof(best_table::kRows[0]) - 1].max_mn_per_sm ==
                  INT64_MAX &&
              best_table::kShortKRows[sizeof(best_table::kShortKRows) / sizeof(best_table::kShortKRows[0]) - 1]
                      .max_mn_per_sm == INT64_MAX,
              "best_table.h: a table's last row must be open");

// The configuration named `name`, or nullptr.
const ConfigDesc* by_name(const char* name) {
    for (const ConfigDesc* c : kCatalogue)
        if (std::strcmp(c->name, name) == 0) return c;
    return nullptr;
}

// best_table.h's configurations looked up by name, once.
struct Tables {
    static constexpr int kRowCount = int(sizeof(best_table::kRows) / sizeof(best_table::kRows[0]));
    static constexpr int kShortKCount = int(sizeof(best_table::kShortKRows) / sizeof(best_table::kShortKRows[0]));
    static constexpr int kPanelCount = int(sizeof(best_table::kPanelRows) / sizeof(best_table::kPanelRows[0]));
    static constexpr int kLongKRateCount = int(sizeof(best_table::kLongKRates) / sizeof(best_table::kLongKRates[0]));
    const ConfigDesc* rows[kRowCount];
    const ConfigDesc* short_k[kShortKCount];
    const ConfigDesc* long_k_rates[kLongKRateCount];
    const ConfigDesc* panel_rows[kPanelCount];  // C of few rows
    const ConfigDesc* panel_columns[kPanelCount];  // C of few columns
    const char* unknown = nullptr;  // the first name best does not have

    Tables() {
        const auto look_up = [this](const char* name) {
            const ConfigDesc* c = by_name(name);
            if (c == nullptr && unknown == nullptr) unknown = name;
            return c;
        };
        for (int i = 0; i < kRowCount; ++i) rows[i] = look_up(best_table::kRows[i].config);
        for (int i = 0; i < kShortKCount; ++i) short_k[i] = look_up(best_table::kShortKRows[i].config);
        for (int i = 0; i < kLongKRateCount; ++i) long_k_rates[i] = look_up(best_table::kLongKRates[i].config);
        for (int i = 0; i < kPanelCount; ++i) {
            panel_rows[i] = look_up(best_table::kPanelRows[i].few_rows);
            panel_columns[i] = look_up(best_table::kPanelRows[i].few_columns);
        }
    }
};

// The tables, or nullptr (with the message recorded) when one names a configuration best does not have.
const Tables* tables() {
    static const Tables t;
    if (t.unknown != nullptr) {
        mm_fail(MM_ERR_CUDA, "best_table.h names a configuration best does not have: '%s' (rerun the tuner)", t.unknown);
        return nullptr;
    }
    return &t;
}

// A bulk-copy configuration that cannot take g runs as its cp.async fallback.
const ConfigDesc* runnable(const ConfigDesc* config, const GemmArgs& g) {
    return config->can_run != nullptr && !config->can_run(g, 1) ? config->fallback : config;
}

// The configuration of a table ordered by M*N per SM.
template <int kCount>
const ConfigDesc* by_mn_per_sm(const best_table::Row (&rows)[kCount], const ConfigDesc* const (&configs)[kCount],
                               int64_t mn_per_sm) {
    int row = 0;
    while (row < kCount - 1 && mn_per_sm > rows[row].max_mn_per_sm) ++row;
    return configs[row];
}

struct Choice {
    const ConfigDesc* config;
    int splits;
};

// The split-K rule: configurations that split take K slices from kSplitMinK on, as split_k.h's policy says.
int splits_for(const ConfigDesc& config, const GemmArgs& g, int sms) {
    if (!config.splits_k || g.K < kSplitMinK) return 1;
    return gemm::choose_splits(gemm::output_tiles(g, config.block), g.K, sms, config.blocks_per_sm);
}

// The long-K rule's configuration for g, or nullptr where g is not a long K over a small C: the longk kernel for a
// C that one of its tiles covers, unless the smaller side leaves it to the skinny kernel; the skinny kernel for the
// smallest C it takes; else the configuration whose tiles, padded to cover C, take the least time at its rate.
// A C whose sides are both so small (up to kLongkTinyMaxSide) that neither operand dominates the bytes goes to the
// longk kernel whatever its smaller side, up to kLongkTinyMaxKPerSm of K per SM.
const ConfigDesc* long_k_choice(const Tables& t, const GemmArgs& g, int sms, int64_t mn_per_sm) {
    if (!best::takes_long_k(g, sms)) return nullptr;
    const int small_side = g.M < g.N ? g.M : g.N, large_side = g.M < g.N ? g.N : g.M;
    const bool tiny_c = large_side <= best_table::kLongkTinyMaxSide &&
                        g.K <= int64_t(best_table::kLongkTinyMaxKPerSm) * sms;
    if (large_side <= longk::kMaxTileSide &&
        (small_side > best_table::kLongkMinSmallSide || tiny_c || !skinny::takes(g)))
        return &longk::kPlanned;
    if (mn_per_sm <= best_table::kLongKSkinnyMaxMnPerSm && skinny::takes(g)) return &skinny::kPlanned;
    const ConfigDesc* fastest = nullptr;
    double least = 0;
    for (int i = 0; i < Tables::kLongKRateCount; ++i) {
        const ConfigDesc* config = t.long_k_rates[i];
        const double covered = double(gemm::output_tiles(g, config->block)) * config->block.m * config->block.n;
        const double time = covered / best_table::kLongKRates[i].tflops;
        if (fastest == nullptr || time < least) {
            fastest = config;
            least = time;
        }
    }
    return fastest;
}

// The whole heuristic: the long-K rule for a long K over a small C; the skinny kernel for a small side; the shortk
// kernel for a very short K; a panel's tile; else a lookup on M*N per SM (in the
// short-K table for a short K), the bulk-copy -> cp.async substitution where the copy engine cannot run, a step down
// while the last wave is too ragged; then the split-K rule.
mm_status choose(const GemmArgs& g, int sms, Choice* choice) {
    const Tables* t = tables();
    if (t == nullptr) return MM_ERR_CUDA;
    const int64_t mn_per_sm = int64_t(g.M) * g.N / sms;
    const int small_side = g.M < g.N ? g.M : g.N, large_side = g.M < g.N ? g.N : g.M;
    const bool small_side_streams = best::streams_small_side(g, sms);
    // A small side against a large side past longk's tile is the skinny kernel's at any K: the operand that side
    // leaves large dominates the bytes, whatever C's size per SM.
    if (const ConfigDesc* long_k = long_k_choice(*t, g, sms, mn_per_sm);
        long_k != nullptr && !(small_side_streams && large_side > longk::kMaxTileSide)) {
        const ConfigDesc* config = runnable(long_k, g);
        *choice = {config, splits_for(*config, g, sms)};
        return MM_OK;
    }
    if (small_side_streams) {
        *choice = {&skinny::kPlanned, 1};
        return MM_OK;
    }
    if (g.K <= best_table::kShortkMaxK && shortk::takes(g)) {
        *choice = {&shortk::kConfig, 1};
        return MM_OK;
    }
    for (int i = 0; i < Tables::kPanelCount && has_short_side(g.M, g.N); ++i) {
        if (g.K <= best_table::kPanelRows[i].max_k && small_side <= best_table::kPanelRows[i].max_small_side) {
            const ConfigDesc* config = runnable(g.M <= g.N ? t->panel_rows[i] : t->panel_columns[i], g);
            *choice = {config, splits_for(*config, g, sms)};
            return MM_OK;
        }
    }
    const ConfigDesc* config = runnable(g.K <= best_table::kShortKMax
                                            ? by_mn_per_sm(best_table::kShortKRows, t->short_k, mn_per_sm)
                                            : by_mn_per_sm(best_table::kRows, t->rows, mn_per_sm),
                                        g);
    for (;;) {
        const int64_t blocks = gemm::output_tiles(g, config->block) * splits_for(*config, g, sms);
        const int64_t slots = ((blocks - 1) / sms + 1) * sms;
        const ConfigDesc* shared = over_many_waves(config);
        if (shared != nullptr && g.K > best_table::kShortKMax && blocks >= int64_t(kManyWaves) * sms &&
            blocks * 100 < slots * kManyWavesMinEfficiencyPct) {
            config = runnable(shared, g);
            break;
        }
        const ConfigDesc* smaller = step_down(config, g.K > best_table::kShortKMax);
        if (smaller == nullptr || blocks * 100 >= slots * kMinWaveEfficiencyPct) break;
        config = runnable(smaller, g);
    }
    *choice = {config, splits_for(*config, g, sms)};
    return MM_OK;
}

// The chosen configuration on g; for N·T where it would transpose B's tiles at every k-step, on B transposed once
// (the N·N problem chosen anew).
mm_status launch_choice(const GemmArgs& g, const Choice& c, int sms, cudaStream_t stream) {
    if (g.op_a == MM_OP_N && g.op_b == MM_OP_T && !c.config->reads_op_t_b) {
        DeviceBuffer b_rows(stream, DeviceBuffer::Pool::kWorkspace);
        GemmArgs n{};
        MM_TRY(gemm::with_b_in_rows(g, b_rows, &n, stream));
        Choice nc{};
        MM_TRY(choose(n, sms, &nc));
        return gemm::launch_config(*nc.config, n, nc.splits, stream);
    }
    return gemm::launch_config(*c.config, g, c.splits, stream);
}

// The ragged-edge rule's model (docs/experiments/2026-12-02-grid-gaps.md): the FMAs a tiled configuration runs per
// microsecond on one SM and the bytes per microsecond the skinny kernel streams (both measured by the tuner:
// best_table.h's kCut*), what a launch of the skinny kernel adds, the share of an edge's time alone that it adds
// beside the bulk, where the rest hides in the bulk's last blocks (docs/experiments/2026-12-06-edges-beside.md),
// and the factor by which the time a cut saves must exceed what its edges add.
constexpr double kEdgeLaunchUs = 3;
constexpr double kEdgeBesideShare = 0.5;
constexpr double kCutMargin = 1.5;

// The part of g that computes C's rows [r0, r0 + rows) and columns [c0, c0 + columns).
GemmArgs part(const GemmArgs& g, int r0, int rows, int c0, int columns) {
    GemmArgs p = g;
    p.M = rows;
    p.N = columns;
    p.A = g.op_a == MM_OP_N ? g.A + int64_t(r0) * g.lda : g.A + r0;
    p.B = g.op_b == MM_OP_N ? g.B + c0 : g.B + int64_t(c0) * g.ldb;
    p.C = g.C + int64_t(r0) * g.ldc + c0;
    return p;
}

// The FMAs of choice c's padded tiles on g that its busiest SM runs: whole waves of blocks, or an even share where
// the configuration shares its last wave out.
double busiest_sm_fmas(const GemmArgs& g, const Choice& c, int sms) {
    const gemm::BlockShape b = c.config->block;
    const double tile = double(b.m) * b.n * ((g.K - 1) / c.splits + 1);
    const double blocks = double(gemm::output_tiles(g, b)) * c.splits;
    return (c.config->shares_last_wave ? blocks / sms : std::ceil(blocks / sms)) * tile;
}

// Microseconds that an edge product on the skinny kernel adds beside the bulk: its share of a launch and one read of
// its operands and C.
double edge_us(const GemmArgs& e) {
    return kEdgeBesideShare * (kEdgeLaunchUs + double(sizeof(float)) *
                                                   (double(e.M) * e.K + double(e.K) * e.N + double(e.M) * e.N) /
                                                   best_table::kCutEdgeBytesPerUs);
}

// Whether best's choice for g is the skinny kernel.
bool goes_to_skinny(const GemmArgs& g, int sms) {
    Choice c{};
    return choose(g, sms, &c) == MM_OK && c.config == &skinny::kPlanned;
}

// C cut at the chosen tiles' edge: the bulk that whole tiles cover, and up to two edges (the last rows across all
// of C, the last columns beside the bulk).
struct Cut {
    GemmArgs bulk;
    Choice bulk_choice;
    GemmArgs edges[2];
    int edge_count;
};

// The ragged-edge rule: where the last row (column) of choice c's tiles holds so few rows (columns) of C that the
// skinny kernel takes them as a product of their own, cutting them off leaves a bulk of whole tiles, chosen anew.
// The cut is taken when the tile FMAs it takes off the busiest SM save more time, by kCutMargin, than its edges
// cost: the edges read the operand they span once, so the cut pays where the padded tiles would cost a wave or a
// share of one, and not where the bulk needs as many waves as C. A configuration that streams (ConfigDesc::streams)
// has no padded tiles for the model to count, and is never cut.
bool ragged_cut(const GemmArgs& g, const Choice& c, int sms, Cut* cut) {
    if (c.config->streams) return false;
    const gemm::BlockShape b = c.config->block;
    const int edge_rows = g.M > b.m ? g.M % b.m : 0, edge_columns = g.N > b.n ? g.N % b.n : 0;
    const GemmArgs row_edge = part(g, g.M - edge_rows, edge_rows, 0, g.N);
    const bool cut_rows = edge_rows > 0 && goes_to_skinny(row_edge, sms);
    const int rows = cut_rows ? g.M - edge_rows : g.M;
    const GemmArgs column_edge = part(g, 0, rows, g.N - edge_columns, edge_columns);
    const bool cut_columns = edge_columns > 0 && goes_to_skinny(column_edge, sms);
    if (!cut_rows && !cut_columns) return false;
    cut->bulk = part(g, 0, rows, 0, cut_columns ? g.N - edge_columns : g.N);
    if (choose(cut->bulk, sms, &cut->bulk_choice) != MM_OK || cut->bulk_choice.config->streams) return false;
    cut->edge_count = 0;
    double edges_us = 0;
    for (const GemmArgs* e : {cut_rows ? &row_edge : nullptr, cut_columns ? &column_edge : nullptr}) {
        if (e == nullptr) continue;
        cut->edges[cut->edge_count++] = *e;
        edges_us += edge_us(*e);
    }
    const double saved_us = (busiest_sm_fmas(g, c, sms) - busiest_sm_fmas(cut->bulk, cut->bulk_choice, sms)) /
                            best_table::kCutTileFmasPerSmPerUs;
    return saved_us > kCutMargin * edges_us;
}

// Set by best::force (the tuner): a configuration and split count (0: the split-K rule's) that replace the
// heuristic's choice.
std::atomic<int> forced_config{-1};
std::atomic<int> forced_splits{1};

// Set by best::edges_beside (the measurements): whether a cut's edges run beside its bulk.
std::atomic<bool> edges_beside_allowed{true};

}  // namespace

namespace best {

bool takes_long_k(const GemmArgs& g, int sms) {
    return g.K >= best_table::kLongKMin && int64_t(g.M) * g.N / sms <= best_table::kLongKMaxMnPerSm;
}

bool streams_small_side(const GemmArgs& g, int sms) {
    const int small_side = g.M < g.N ? g.M : g.N;
    return (small_side <= (g.M <= g.N ? best_table::kSkinnyMaxRows : best_table::kSkinnyMaxColumns) &&
            skinny::takes(g)) ||
           skinny::streams_in_bulk(g, sms);
}

int config_count() { return kCatalogueSize; }

const ConfigDesc& config(int index) { return *kCatalogue[index]; }

void force(int index, int splits) {
    forced_splits = splits;
    forced_config = index;
}

void edges_beside(bool allowed) { edges_beside_allowed.store(allowed, std::memory_order_relaxed); }

}  // namespace best

mm_status launch_best(const GemmArgs& g, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int forced = forced_config.load();
    if (forced >= 0) {
        const ConfigDesc& config = *kCatalogue[forced];
        const int splits = forced_splits.load();
        return gemm::launch_config(config, g, splits == 0 ? splits_for(config, g, sms) : splits, stream);
    }
    Choice c{};
    MM_TRY(choose(g, sms, &c));
    Cut cut{};
    if (!ragged_cut(g, c, sms, &cut)) return launch_choice(g, c, sms, stream);
    if (!edges_beside_allowed.load(std::memory_order_relaxed)) {
        MM_TRY(launch_choice(cut.bulk, cut.bulk_choice, sms, stream));
        for (int i = 0; i < cut.edge_count; ++i)
            MM_TRY(launch_choice(cut.edges[i], {&skinny::kPlanned, 1}, sms, stream));
        return MM_OK;
    }
    // The edges go beside the bulk: on a side stream forked before the bulk and launched after it, so that the bulk's
    // blocks take the SMs first and the edges fill what its last blocks leave idle. Their K slices add up through
    // the workspace, not in clusters, whose blocks would wait for SMs of one GPC that the bulk's blocks hold.
    gemm::Beside beside(stream);
    MM_TRY(beside.status());
    MM_TRY(launch_choice(cut.bulk, cut.bulk_choice, sms, stream));
    for (int i = 0; i < cut.edge_count; ++i)
        MM_TRY(launch_choice(cut.edges[i], {&skinny::kPlannedUnclustered, 1}, sms, beside.side()));
    return beside.join();
}
