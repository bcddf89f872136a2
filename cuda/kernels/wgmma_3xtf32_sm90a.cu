// wgmma_3xtf32: fp32 accuracy from TF32 tensor cores (3xTF32), on the persistent warp-specialised frame of
// wgmma_tf32.
//
// Technique: each operand value x is split once into big = tf32(x) and small = tf32(x - big), both rounded to nearest
// (core/mma/tf32_mma_sync.cuh, split_tf32), so big + small is x to within 2^-22 |x|. The product is
// small·big + big·small + big·big, three wgmma per k8 step into one accumulator set; the dropped small·small term is
// below 2^-22 of each product. Both operands are split before the kernel, each by one pass over global memory into
// two K-major copies (core/layout/rearrange.h, launch_tf32_split_gather), so a stage brings four tiles (A big,
// A small, B big, B small) and the wgmma read both operands from shared memory.
//
// Composition: the kernel is the Hopper frame (core/kernel/warp_specialized.cuh: the shared storage and its
// barriers, the producer and consumer warpgroups and their register budgets, the persistent walk) over this file's
// parts: Producer (a stage's four copies), Mainloop (the three MMAs per step and the promotion below, into the
// total), Epilogue (the total into C, or into a tail piece) and the schedule gemm::PersistentTiles with split tails.
//
// Promotion: the tensor cores' own fp32 accumulation drops low bits at every step, so its error grows with the
// length of the chain it sums, whatever the product terms. Each chunk of kPromoteK of K therefore sums in one of two
// accumulator sets, and the set of the chunk before is added into a third, fp32 register total (in the CUDA
// cores, rounded to nearest) while the next chunk's MMAs run. A pass of kPassKTiles K tiles is straight-line code that
// ends with every MMA retired: ptxas serialises every wgmma (C7514) when one set is read while the other's MMAs run
// across a loop's back edge.
// The chunk is 8 of K below K = 1024, 16 below K = 4096 and 32 from there on. The error a chunk adds grows with its
// length, so a short chunk is the more accurate, and it is what keeps a short product within SGEMM's error, which is
// smallest there; but each halving doubles the total's adds, which cost speed, more so as K grows (large products
// run at the power limit). SGEMM's own error grows with K past 16's at K = 1024 and past 32's at K = 4096; both the
// speed and the errors are measured in docs/experiments/2026-12-01-promote8.md.
//
// Changes vs wgmma_tf32: three MMAs per step instead of one; A split and read from shared memory instead of rounded
// in registers (two split register sets would not fit beside three accumulator sets); B split into two copies instead
// of rounded into one; the two accumulator sets and the total (3 x 64 registers per consumer thread), hence 64 x 128
// warpgroup tiles; 3 stages of 64 KiB; no K slices for accuracy (promotion bounds every chain); the last wave split.
//
// Where the split loses accuracy (from the formats; the tests cover the overflow side only): below |x| of about
// 2^-115 the small part (at most 2^-11 |x|) falls among the fp32 subnormals and keeps fewer bits, and below about
// 2^-139 it is 0, so such an x counts at TF32 accuracy. An |x| within half a TF32 step of the fp32 maximum rounds up
// to big = Inf, and Inf does not survive the split (Inf * b becomes Inf * big(b) + Inf * small(b), whose signs may
// differ): the split passes flag the rows of A and columns of B where a big part is not finite (an Inf or NaN, or
// that overflow), and those rows and columns of C are recomputed in plain fp32 afterwards
// (core/epilogue/nonfinite_fixup.h), so Inf and NaN come out as in NumPy and values near the maximum as in fp32.
//
// Schedule: persistent, one block per SM walking the tiles in raster order. Where the tiles fill at least one wave,
// the ragged last wave's tiles go in K pieces that every block shares when gemm::split_tail's model finds that
// shorter (3072^3 on 132 SMs: 576 tiles, 4 whole waves and 48 tiles in 8 pieces), and a pass sums the pieces into C
// (schedule/split_tail.h); with fewer tiles than SMs every tile's K is split (schedule/split_k.h). What it gains
// and where it does not: docs/experiments/2026-12-01-split-tail.md.
//
// What limits it: the GPU's power limit on large products. Run for seconds, it draws the GPU to its power limit and
// the SM clock settles below its maximum, so its speed depends on what ran just before it (measured in
// docs/experiments/2026-12-01-3xtf32-power-state.md). Also the two split passes, which move 3 x (M + N) x K x 4
// bytes for 6 x M x N x K tensor FLOP (docs/experiments/2026-12-01-wgmma-3xtf32.md and
// docs/experiments/2026-12-01-operand-passes.md).
//
// Tile: 128 x 128 x 32, 3 stages of 64 KiB (four 16 KiB tiles), 384 threads (one producer warpgroup, of which one
// thread works, and two consumer warpgroups of 64 rows each; setmaxnreg 40 / 232), one block per SM; promotion every
// 8, 16 or 32 of K (kShortPromoteK, kMiddlePromoteK, kLongPromoteK: a k8 step, half a K tile or one), passes of
// kPassKTiles = 4 K tiles.
#include <type_traits>

#include "core/copy/bulk_tensor.cuh"
#include "core/copy/cp_async.cuh"
#include "core/copy/tensor_map.h"
#include "core/device.h"
#include "core/device_buffer.h"
#include "core/epilogue/direct_store.cuh"
#include "core/epilogue/nonfinite_fixup.h"
#include "core/kernel/warp_specialized.cuh"
#include "core/launch.h"
#include "core/layout/rearrange.h"
#include "core/mma/wgmma_tf32.cuh"
#include "core/problem.h"
#include "core/schedule/persistent_tiles.cuh"
#include "core/schedule/split_k.h"
#include "core/schedule/split_tail.h"
#include "core/unroll.cuh"

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 32, kStages = 3;
// K per promotion chunk (a multiple of 8 dividing kBK, or a multiple of kBK): the short chunk where K is below
// kMiddleK, the middle one below kLongK, the long one from there on (see the header).
constexpr int kShortPromoteK = 8, kMiddlePromoteK = 16, kLongPromoteK = 32;
constexpr int64_t kMiddleK = 1024, kLongK = 4096;
// K tiles per pass of the main loop, straight-line code that ends with every MMA retired: ptxas serialises every
// wgmma (C7514) when one set's accumulators are read while the other's MMAs run across a loop's back edge.
constexpr int kPassKTiles = 4;
template <int kPromoteK>
constexpr bool whole_chunks = kPromoteK % 8 == 0 && (kBK % kPromoteK == 0 || kPromoteK % kBK == 0) &&
                              kPassKTiles * kBK % kPromoteK == 0;  // chunks of whole k8 steps, whole chunks per pass
static_assert(whole_chunks<kShortPromoteK> && whole_chunks<kMiddlePromoteK> && whole_chunks<kLongPromoteK>,
              "promotion intervals");
// Three stages; one producer warpgroup and two consumer warpgroups (64 rows of the tile each), setmaxnreg moving
// the producer's registers to the consumers.
constexpr gemm::WarpSpecialized kFrame{.stages = kStages, .consumers = 2, .producer_registers = 40,
                                       .consumer_registers = 232};
constexpr int kAccumulators = kBN / 2;  // a 64 x 128 fp32 product over 128 threads
constexpr int kTileBytes = 128 * kBK * int(sizeof(float));  // 128 rows of one K tile
constexpr int kWarpgroupRowsBytes = 64 * kBK * int(sizeof(float));  // a consumer's 64 rows of an A tile

static_assert(kBM == 128 && kBN == 128 && kBK * sizeof(float) == 128, "128-row tiles of one 128-byte swizzled row");
static_assert(kBM == 64 * kFrame.consumers, "each consumer warpgroup owns 64 rows and every column");
static_assert(kTileBytes % gemm::kSwizzleAtomBytes == 0 && kWarpgroupRowsBytes % gemm::kSwizzleAtomBytes == 0,
              "aligned tiles");

// The four operand parts a stage holds, in the order of Maps and Tiles.
enum Part { kABig, kASmall, kBBig, kBSmall, kParts };

// The ring's tiles, at the start of the frame's 1,024-byte aligned storage.
struct Tiles {
    float tile[kStages][kParts][kTileBytes / 4];
};
using Storage = gemm::WarpSpecializedStorage<Tiles, kStages>;
constexpr int kSmemBytes = gemm::kWarpSpecializedSmemBytes<Storage>;
static_assert(gemm::fits_shared_memory(kSmemBytes, 1), "one block per SM");

struct Maps {
    CUtensorMap part[kParts];
};

using Ring = gemm::RingPosition<kStages>;
using Schedule = gemm::PersistentTiles<kBM, kBN, true>;

// The kernel's parameters as its parts read them: the tensor maps (its __grid_constant__ parameter), where the
// units that write C go (K slices of a split-K launch each at their slice), where the pieces of a split tail go
// (schedule.tail_splits > 1: dense kBM x kBN tiles by TileUnit::piece), and the schedule.
struct Params {
    const Maps* maps;
    gemm::SliceOutput out;
    float* pieces;
    gemm::PersistentSchedule schedule;
};

// The copies of one stage: the four parts' tiles.
struct Producer {
    static constexpr uint32_t kStageBytes = kParts * kTileBytes;

    __device__ __forceinline__ static void prefetch(const Params& p) {
        for (int part = 0; part < kParts; ++part) gemm::prefetch_tensor_map(&p.maps->part[part]);
    }

    __device__ __forceinline__ static void load(Tiles& tiles, int stage, uint32_t full, const gemm::TileUnit& w,
                                                int kt, const Params& p) {
#pragma unroll
        for (int part = 0; part < kParts; ++part)
            gemm::bulk_tensor_load_2d(gemm::smem_addr(tiles.tile[stage][part]), &p.maps->part[part], full, kt * kBK,
                                      part < kBBig ? w.m0 : w.n0);
    }
};

// A consumer warpgroup's MMAs over a unit's K tiles into its 64 x 128 total: three MMAs per k8 step from shared
// memory, in chunks of kPromoteK of K, each chunk summed in one of two accumulator sets and added into the total
// while the next chunk's MMAs run (see the header).
template <int kPromoteK>
class Mainloop {
  public:
    using Accumulators = float[kAccumulators];

    __device__ __forceinline__ explicit Mainloop(int consumer_index) : consumer_index_(consumer_index) {}

    // The unit's K tiles from the ring at r on, every MMA retired and every stage given back at the end.
    __device__ __forceinline__ void operator()(Storage& st, Ring& r, const gemm::TileUnit& w) {
        Ring giving_back = r;  // the stage the next release gives back: K tiles retire in order
        const auto release_next = [&] {
            st.release(giving_back.stage);
            giving_back.advance();
        };
        const auto add_into_total = [&](const float(&set)[kAccumulators]) {
#pragma unroll
            for (int i = 0; i < kAccumulators; ++i) total_[i] += set[i];
        };
        // kTiles K tiles, their k8 steps in chunks of kChunk steps (chunk c in acc_[c % 2]), ending with every MMA
        // retired and the last chunk in the total. The MMAs are committed in groups that end where a tile or a chunk
        // ends; after each group is issued the one before it is retired, and what it ended is settled: a chunk goes
        // into the total (the group in flight fills the other set), a tile's stage goes back to the producer.
        const auto pass = [&](auto tiles, auto chunk) {
            constexpr int kTiles = decltype(tiles)::value, kChunk = decltype(chunk)::value;
            constexpr auto ends_tile = [](int g) { return (g + 1) % kSteps == 0; };
            constexpr auto ends_chunk = [](int g) { return (g + 1) % kChunk == 0; };
            constexpr auto previous_group_end = [ends_tile, ends_chunk](int g) {
                for (int p = g - 1; p >= 0; --p)
                    if (ends_tile(p) || ends_chunk(p)) return p;
                return -1;
            };
            gemm::static_for<0, kTiles>([&](auto i) {
                constexpr int kI = decltype(i)::value;
                st.wait_full(r);
                const uint32_t rows = consumer_index_ * kWarpgroupRowsBytes;
                const uint32_t a_big = gemm::smem_addr(st.tiles.tile[r.stage][kABig]) + rows;
                const uint32_t a_small = gemm::smem_addr(st.tiles.tile[r.stage][kASmall]) + rows;
                const uint32_t b_big = gemm::smem_addr(st.tiles.tile[r.stage][kBBig]);
                const uint32_t b_small = gemm::smem_addr(st.tiles.tile[r.stage][kBSmall]);
                gemm::static_for<0, kSteps>([&](auto k8) {
                    constexpr int kK8 = decltype(k8)::value, kG = kI * kSteps + kK8, kSet = kG / kChunk % 2;
                    constexpr int kPrevious = previous_group_end(kG);
                    if constexpr (kPrevious == kG - 1) {  // the step opens a group
                        // Both sets pinned here: holding only this group's let ptxas copy the total away from its
                        // registers around a mid-tile wait, and spill.
                        gemm::wgmma_hold(acc_[0]);
                        gemm::wgmma_hold(acc_[1]);
                        gemm::wgmma_fence();
                    }
                    const int step_bytes = 32 * kK8;  // 8 floats further along the swizzled rows
                    const uint64_t bb = gemm::sw128_k_major_descriptor(b_big + step_bytes);
                    const uint64_t ab = gemm::sw128_k_major_descriptor(a_big + step_bytes);
                    gemm::wgmma_m64n128k8_tf32(acc_[kSet], gemm::sw128_k_major_descriptor(a_small + step_bytes), bb,
                                               kG % kChunk > 0);  // a chunk's first MMA overwrites its set
                    gemm::wgmma_m64n128k8_tf32(acc_[kSet], ab, gemm::sw128_k_major_descriptor(b_small + step_bytes),
                                               true);
                    gemm::wgmma_m64n128k8_tf32(acc_[kSet], ab, bb, true);
                    if constexpr (ends_tile(kG) || ends_chunk(kG)) {
                        gemm::wgmma_commit();
                        if constexpr (kPrevious >= 0) {
                            gemm::wgmma_wait<1>();
                            gemm::wgmma_hold(acc_[kSet]);
                            if constexpr (ends_chunk(kPrevious)) add_into_total(acc_[1 - kSet]);
                            if constexpr (ends_tile(kPrevious)) release_next();
                        }
                    }
                });
                r.advance();
            });
            gemm::wgmma_wait<0>();
            gemm::wgmma_hold(acc_[0]);
            gemm::wgmma_hold(acc_[1]);
            add_into_total(acc_[(kTiles * kSteps - 1) / kChunk % 2]);
            release_next();
        };
#pragma unroll
        for (int i = 0; i < kAccumulators; ++i) total_[i] = 0.0f;
        int kt = 0;
        for (; kt + kPassKTiles <= w.ktiles; kt += kPassKTiles)
            pass(std::integral_constant<int, kPassKTiles>{}, std::integral_constant<int, kChunkSteps>{});
        for (; kt < w.ktiles; ++kt)  // the K tiles short of a whole pass, each in chunks of at most itself
            pass(std::integral_constant<int, 1>{},
                 std::integral_constant<int, (kChunkSteps < kSteps ? kChunkSteps : kSteps)>{});
    }

    __device__ __forceinline__ const Accumulators& result() const { return total_; }

  private:
    static constexpr int kSteps = kBK / gemm::kWgmmaK, kChunkSteps = kPromoteK / gemm::kWgmmaK;
    int consumer_index_;
    // Chunk c of a pass accumulates in acc_[c % 2] while chunk c - 1's set is added into the total.
    float acc_[2][kAccumulators];
    Accumulators total_;
};

// A consumer's 64 x 128 part of the unit's total into C, or, for a tail piece, into the piece's dense tile for
// gemm::launch_tail_reduce.
template <bool kAligned>
struct Epilogue {
    __device__ __forceinline__ static void store(const float (&total)[kAccumulators], const gemm::TileUnit& w,
                                                 int consumer_index, const Params& p) {
        if (w.piece < 0)
            gemm::store_warpgroup_tile<kBN, kAligned>(total, p.out.base + int64_t(w.slice) * p.out.slice_stride,
                                                      p.out.ld, p.schedule.M, p.schedule.N, w.m0, w.n0,
                                                      consumer_index);
        else
            gemm::store_warpgroup_tile<kBN, true>(total, p.pieces + int64_t(w.piece) * (kBM * kBN), kBN, kBM, kBN, 0,
                                                  0, consumer_index);
    }
};

// out: where units that write C go (K slices of a split-K launch each at their slice); pieces: where the pieces of a
// split tail go (s.tail_splits > 1), dense kBM x kBN tiles by TileUnit::piece.
template <bool kAligned, int kPromoteK>
__global__ void __launch_bounds__(kFrame.threads(), 1)
    wgmma_3xtf32_kernel(const __grid_constant__ Maps maps, gemm::SliceOutput out, float* pieces,
                        gemm::PersistentSchedule s) {
    gemm::warp_specialized<kFrame, Tiles, Schedule, Producer, Mainloop<kPromoteK>, Epilogue<kAligned>>(
        Params{&maps, out, pieces, s});
}

// g's A and B are the big parts, M x K and N x K; each small part follows its big part in the same allocation.
const float* small_part(const float* big, int rows, int64_t ld) { return big + int64_t(rows) * ld; }

template <bool kAligned, int kPromoteK>
mm_status launch_kernel(const GemmArgs& g, const gemm::PersistentSchedule& s, int blocks, gemm::SliceOutput out,
                        float* pieces, cudaStream_t stream) {
    constexpr auto kernel = &wgmma_3xtf32_kernel<kAligned, kPromoteK>;
    Maps maps;
    const gemm::BlockShape tile{kBM, kBN, kBK};
    MM_TRY(gemm::prepare_bulk_copy_launch<kernel>(kSmemBytes, g, tile, &maps.part[kABig], &maps.part[kBBig]));
    GemmArgs small = g;
    small.A = small_part(g.A, g.M, g.lda);
    small.B = small_part(g.B, g.N, g.ldb);
    MM_TRY(gemm::encode_operand_maps(small, tile.m, tile.n, tile.k, &maps.part[kASmall], &maps.part[kBSmall]));
    return gemm::launch(kernel, blocks, kFrame.threads(), kSmemBytes, stream, "wgmma_3xtf32", maps, out, pieces, s);
}

// The kernel over K slices (a gemm::SliceLauncher).
template <int kPromoteK>
mm_status launch_slices(const GemmArgs& g, int /*splits*/, int ktiles_per_split, gemm::SliceOutput out,
                        cudaStream_t stream) {
    return gemm::launch_persistent(g, gemm::BlockShape{kBM, kBN, kBK}, ktiles_per_split, out,
                                   [&](auto aligned, const gemm::PersistentSchedule& s, int blocks) {
                                       return launch_kernel<decltype(aligned)::value, kPromoteK>(g, s, blocks, out,
                                                                                                 nullptr, stream);
                                   });
}

// The product of the split operands at one promotion interval: with splits > 1 (fewer tiles than SMs) K slices
// for every tile; else whole tiles into C, the ragged last wave in K pieces at least a pass deep when
// gemm::split_tail finds that shorter.
template <int kPromoteK>
mm_status launch_product(const GemmArgs& g, int splits, cudaStream_t stream) {
    if (splits > 1) return gemm::run_split_k(g, splits, kBK, &launch_slices<kPromoteK>, stream);
    return gemm::launch_persistent_split_tail(
        g, gemm::BlockShape{kBM, kBN, kBK}, kPassKTiles, stream,
        [&](auto aligned, const gemm::PersistentSchedule& s, int blocks, float* pieces) {
            return launch_kernel<decltype(aligned)::value, kPromoteK>(g, s, blocks, gemm::SliceOutput{g.C, g.ldc, 0},
                                                                      pieces, stream);
        });
}

constexpr auto kRowMajorKernel = &wgmma_3xtf32_kernel<false, kLongPromoteK>;

}  // namespace

mm_status requires_wgmma_3xtf32() {
    return gemm::require_bulk_copy(gemm::machine_code_of<kRowMajorKernel>(), "wgmma_3xtf32");
}

mm_status launch_wgmma_3xtf32(const GemmArgs& g, cudaStream_t stream) {
    // One allocation: A big and small (M x K each), B big and small (N x K each), all with K along their rows, then
    // the non-finite flags of A's rows (M) and of B's columns (N).
    DeviceBuffer parts(stream, DeviceBuffer::Pool::kWorkspace);
    const int64_t ld = padded_ld(g.K);
    const size_t a_part = size_t(g.M) * size_t(ld), b_part = size_t(g.N) * size_t(ld);
    const size_t flags = size_t(g.M) + size_t(g.N);
    MM_TRY(parts.allocate(2 * sizeof(float) * (a_part + b_part) + sizeof(int) * flags,
                          "the split K-major copies of A and B"));
    float* const a_big = parts.data();
    float* const b_big = a_big + 2 * a_part;
    int* const a_row_flags = reinterpret_cast<int*>(b_big + 2 * b_part);
    int* const b_column_flags = a_row_flags + g.M;
    MM_TRY(mm_check_cuda(cudaMemsetAsync(a_row_flags, 0, sizeof(int) * flags, stream), "cudaMemsetAsync"));
    const bool a_n = g.op_a == MM_OP_N, b_t = g.op_b == MM_OP_T;
    MM_TRY(gemm::launch_tf32_split_gather(g.A, g.M, g.K, a_n ? g.lda : 1, a_n ? 1 : g.lda, a_big, a_big + a_part,
                                          a_row_flags, ld, stream));
    MM_TRY(gemm::launch_tf32_split_gather(g.B, g.N, g.K, b_t ? g.ldb : 1, b_t ? 1 : g.ldb, b_big, b_big + b_part,
                                          b_column_flags, ld, stream));
    GemmArgs k = g;
    k.A = a_big;
    k.B = b_big;
    k.lda = k.ldb = ld;
    k.op_a = MM_OP_N;
    k.op_b = MM_OP_T;
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int64_t tiles = tiles_of(g.M, kBM) * tiles_of(g.N, kBN);
    const int splits = gemm::choose_splits(tiles, g.K, sms, 1);
    MM_TRY(g.K < kMiddleK ? launch_product<kShortPromoteK>(k, splits, stream)
           : g.K < kLongK ? launch_product<kMiddlePromoteK>(k, splits, stream)
                          : launch_product<kLongPromoteK>(k, splits, stream));
    return gemm::launch_nonfinite_fixup(g, a_row_flags, b_column_flags, stream);
}
