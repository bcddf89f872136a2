// wgmma_3xtf32_register_split: fp32 accuracy from TF32 tensor cores (3xTF32) with the larger operand split in
// registers, so that only the smaller one passes over memory before the kernel.
//
// Technique: as wgmma_3xtf32, each operand value x counts as big + small = tf32(x) + tf32(x - big) (within
// 2^-22 |x|, core/mma/tf32_mma_sync.cuh, split_tf32), and the product is small·big + big·small + big·big, three
// wgmma per k8 step, with the tensor cores' fp32 sums promoted into an fp32 total every kPromoteK of K (see
// wgmma_3xtf32's header: chunks in two alternating accumulator sets, each added into the total while the next
// chunk's MMAs run). The larger operand is wgmma's register operand
// (core/kernel/register_operand.cuh): the consumers load its fragments as it lies, K-major or MN-major, and split
// them in registers, so it is read once from memory and never copied; the smaller one passes through one split
// gather into two K-major planes (big and small), which a stage brings beside the register operand's tile. Where
// a product has a small side (panels, decode batches, projections of a few hundred tokens), that pass is small
// beside the product.
//
// Non-finite values: Inf and NaN do not survive the split (Inf * b becomes Inf * big(b) + Inf * small(b), whose
// signs may differ), nor does a value within half a TF32 step of the fp32 maximum (its big part rounds up to Inf).
// The split gather flags the smaller operand's lines that hold one; the consumers flag the register operand's rows
// whose big part is not finite as they split them; and those rows and columns of C are recomputed in plain fp32
// afterwards (core/epilogue/nonfinite_fixup.h), as wgmma_3xtf32 does.
//
// Changes vs wgmma_3xtf32: the larger operand in registers, split there, instead of split by a pass over memory
// into two copies read from shared memory; tiles fitted to the smaller operand's side (128 x 8 to 128 x 64)
// instead of 128 x 128, since the two split register sets, the two accumulator sets and the total must fit in a
// consumer thread's registers; the schedule and split tails of wgmma_tf32's small sides (K slices that share the
// tiles out evenly over the SMs, here at least kMinSliceK deep at every width; the ragged last wave of many tiles in
// K pieces).
//
// Tile: 128 x kBN x 32 (kBN = 8, 16, 24, 32 or 64: the narrowest that covers a side of C of up to 64, else 64),
// 384 threads (one producer warpgroup, of which one thread works, and two consumer warpgroups of 64 rows; setmaxnreg
// 40 / 232), one block per SM; stages of the register operand's 16 KiB tile and two planes of kBN x 32, 8 of them
// up to 32 columns and 6 at 64; promotion every 8, 16 or 32 of K as in wgmma_3xtf32.
#include <atomic>
#include <type_traits>

#include "core/device.h"
#include "core/device_buffer.h"
#include "core/epilogue/nonfinite_fixup.h"
#include "core/kernel/register_operand.cuh"
#include "core/layout/rearrange.h"
#include "core/unroll.cuh"

namespace {

constexpr int kBK = gemm::kRegisterTileK;
constexpr int kMaxWidth = 64;
// K per promotion chunk: kShortPromoteK below kMiddleK, kMiddlePromoteK below kLongK, kLongPromoteK from there on
// (wgmma_3xtf32's intervals and bounds, measured there).
constexpr int kShortPromoteK = 8, kMiddlePromoteK = 16, kLongPromoteK = 32;
constexpr int64_t kMiddleK = 1024, kLongK = 4096;
constexpr int kPlanes = 2;  // the smaller operand's big and small parts
enum Plane { kBig, kSmall };

template <int kBN>
using Width = gemm::RegisterOperandShape<kBN, kPlanes, kBN <= 32 ? 8 : 6>;
using Params = gemm::RegisterOperandParams<kPlanes>;

// What a consumer thread hands the epilogue: its 64 x kBN part of the unit's total, the tile's row of its fragments'
// first row, and whether its two rows (that one and the one 8 further) held a value the split cannot carry.
template <int kBN>
struct Result {
    float total[kBN / 2];
    int row;
    bool cannot_carry[2];
};

// A consumer warpgroup's MMAs over a unit's K tiles into its 64 x kBN total: for each K tile, its fragments of the
// register operand loaded and split into big and small parts, then three MMAs per k8 step with the smaller
// operand's two planes from shared memory, in chunks of kPromoteK of K (at most a K tile), each chunk summed in one
// of two accumulator sets and added into the total while the next chunk's MMAs run. The tile's last chunk is
// retired before the next tile's fragments are split into the same registers: one set of split fragments leaves
// room for the accumulator sets and the total at every width, and the other consumer warpgroup's MMAs keep the
// tensor cores busy meanwhile. kMnMajor: the register operand's tile is MN-major.
template <int kBN, bool kMnMajor, int kPromoteK>
class Mainloop {
  public:
    using Accumulators = Result<kBN>;
    using Storage = typename Width<kBN>::Storage;
    using Ring = typename Width<kBN>::Ring;

    __device__ __forceinline__ explicit Mainloop(int consumer_index) : fragments_(consumer_index) {
        result_.row = fragments_.row();
    }

    // The unit's K tiles from the ring at r on, every MMA retired and every stage given back at the end.
    __device__ __forceinline__ void operator()(Storage& st, Ring& r, const gemm::TileUnit& w) {
        const auto add_into_total = [&](const float(&set)[kAccumulators]) {
#pragma unroll
            for (int i = 0; i < kAccumulators; ++i) result_.total[i] += set[i];
        };
#pragma unroll
        for (int i = 0; i < kAccumulators; ++i) result_.total[i] = 0.0f;
        result_.cannot_carry[0] = result_.cannot_carry[1] = false;
        for (int kt = 0; kt < w.ktiles; ++kt) {
            st.wait_full(r);
            split_fragments(gemm::smem_addr(st.tiles.a[r.stage]));
            const uint32_t b_big = gemm::smem_addr(st.tiles.b[r.stage][kBig]);
            const uint32_t b_small = gemm::smem_addr(st.tiles.b[r.stage][kSmall]);
            // Chunk j in acc_[j % 2]; once it is issued, chunk j - 1 is retired and added into the total.
            gemm::static_for<0, kChunks>([&](auto j) {
                constexpr int kJ = decltype(j)::value, kSet = kJ % 2;
                gemm::wgmma_hold(acc_[0]);
                gemm::wgmma_hold(acc_[1]);
                gemm::wgmma_hold(big_);
                gemm::wgmma_hold(small_);
                gemm::wgmma_fence();
                gemm::static_for<0, kChunkSteps>([&](auto step) {
                    constexpr int kStep = decltype(step)::value, kK8 = kJ * kChunkSteps + kStep;
                    const int step_bytes = 32 * kK8;  // 8 floats further along the swizzled rows
                    const uint64_t bb = gemm::sw128_k_major_descriptor(b_big + step_bytes);
                    gemm::wgmma_tf32_step<kBN>(acc_[kSet], small_[kK8], bb, kStep > 0);  // a chunk's first overwrites
                    gemm::wgmma_tf32_step<kBN>(acc_[kSet], big_[kK8],
                                               gemm::sw128_k_major_descriptor(b_small + step_bytes), true);
                    gemm::wgmma_tf32_step<kBN>(acc_[kSet], big_[kK8], bb, true);
                });
                gemm::wgmma_commit();
                if constexpr (kJ > 0) {
                    gemm::wgmma_wait<1>();
                    gemm::wgmma_hold(acc_[kSet]);
                    add_into_total(acc_[1 - kSet]);
                }
            });
            gemm::wgmma_wait<0>();
            gemm::wgmma_hold(acc_[0]);
            gemm::wgmma_hold(acc_[1]);
            gemm::wgmma_hold(big_);
            gemm::wgmma_hold(small_);
            add_into_total(acc_[(kChunks - 1) % 2]);
            st.release(r.stage);
            r.advance();
        }
    }

    __device__ __forceinline__ const Accumulators& result() const { return result_; }

  private:
    static constexpr int kSteps = kBK / gemm::kWgmmaK, kChunkSteps = kPromoteK / gemm::kWgmmaK;
    static constexpr int kChunks = kSteps / kChunkSteps;
    static constexpr int kAccumulators = Width<kBN>::kAccumulators;
    static_assert(kPromoteK % gemm::kWgmmaK == 0 && kBK % kPromoteK == 0, "chunks of whole k8 steps within a K tile");

    // The tile's fragments at shared-window address `tile`, split; a0 and a2 lie in the thread's first row, a1 and
    // a3 in the row 8 further.
    __device__ __forceinline__ void split_fragments(uint32_t tile) {
        uint32_t raw[kSteps][4];
        fragments_.load(tile, raw);
#pragma unroll
        for (int k8 = 0; k8 < kSteps; ++k8)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const gemm::Tf32Split s = gemm::split_tf32(__uint_as_float(raw[k8][e]));
                big_[k8][e] = s.big;
                small_[k8][e] = s.small;
                result_.cannot_carry[e % 2] |= !isfinite(__uint_as_float(s.big));
            }
    }

    gemm::RegisterFragments<kMnMajor> fragments_;
    // Chunk j of a tile accumulates in acc_[j % 2] while chunk j - 1's set is added into the total.
    float acc_[2][kAccumulators];
    uint32_t big_[kSteps][4], small_[kSteps][4];
    Result<kBN> result_;
};

// The total into C or a tail piece (gemm::store_register_operand_tile), and the rows that held a value the split
// cannot carry marked in the register operand's row flags. kTransposed: the schedule is of C's transpose.
template <int kBN, bool kAligned, bool kTransposed>
struct Epilogue {
    __device__ __forceinline__ static void store(const Result<kBN>& r, const gemm::TileUnit& w, int consumer_index,
                                                 const Params& p) {
        gemm::store_register_operand_tile<kBN, kAligned, kTransposed>(r.total, w, consumer_index, p);
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int row = w.m0 + r.row + 8 * half;
            if (r.cannot_carry[half] && row < p.schedule.M) p.row_flags[row] = 1;
        }
    }
};

constexpr int kThreads = Width<kMaxWidth>::kFrame.threads();

template <int kBN, bool kAligned, bool kMnMajor, bool kTransposed, int kPromoteK>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_3xtf32_register_split_kernel(const __grid_constant__ gemm::RegisterOperandMaps<kPlanes> maps,
                                       gemm::SliceOutput out, float* pieces, int* row_flags,
                                       gemm::PersistentSchedule s) {
    using W = Width<kBN>;
    static_assert(W::kFrame.threads() == kThreads, "every width's block has the same threads");
    gemm::warp_specialized<W::kFrame, typename W::Tiles, typename W::Schedule,
                           gemm::RegisterOperandProducer<W, kPlanes, kMnMajor>, Mainloop<kBN, kMnMajor, kPromoteK>,
                           Epilogue<kBN, kAligned, kTransposed>>(Params{&maps, out, pieces, row_flags, s});
}

// The rung at one promotion interval (gemm::launch_on_path): t is the kernel's problem, its B the big plane of the
// smaller operand in the rung's workspace (launch_wgmma_3xtf32_register_split): the small plane right after it (t.N
// rows on), then the flags of C's rows (A's) and of C's columns (B's), whose register operand's the kernel marks.
template <int kPromoteK>
struct Rung {
    template <int kBN, bool kAligned, bool kMnMajor, bool kTransposed>
    static mm_status launch(const GemmArgs& t, const gemm::PersistentSchedule& s, int blocks, gemm::SliceOutput out,
                            float* pieces, cudaStream_t stream) {
        constexpr auto kernel = &wgmma_3xtf32_register_split_kernel<kBN, kAligned, kMnMajor, kTransposed, kPromoteK>;
        constexpr int kSmemBytes = Width<kBN>::kSmemBytes;
        gemm::RegisterOperandMaps<kPlanes> maps;
        const int64_t plane = int64_t(t.N) * t.ldb;
        const float* const planes[kPlanes] = {t.B, t.B + plane};
        // C's row flags come first: the register operand's rows are C's rows (A's) on the direct path, its columns
        // (B's, after t.N = M row flags) on the transposed ones.
        int* const row_flags = reinterpret_cast<int*>(const_cast<float*>(t.B) + 2 * plane) + (kTransposed ? t.N : 0);
        MM_TRY((gemm::encode_register_operand_maps<kernel, kBN, kPlanes, kMnMajor>(t, planes, kSmemBytes, &maps)));
        return gemm::launch(kernel, blocks, kThreads, kSmemBytes, stream, "wgmma_3xtf32_register_split", maps, out,
                            pieces, row_flags, s);
    }
};

constexpr int kMinPieceKTiles = 4;  // pieces of a split tail at least this many K tiles deep

template <gemm::OperandPath kPath, int kPromoteK>
gemm::RegisterOperandLaunchers launchers(int width) {
    return gemm::SmallSideWidths::launchers<Rung<kPromoteK>, kPath, kMinPieceKTiles, kMaxWidth>(width);
}

// The width for a C of `columns` in the kernel's orientation: the narrowest that covers them, else the widest.
int tile_width(int64_t columns) { return gemm::SmallSideWidths::covering(columns, kMaxWidth); }

// The least depth of a K slice, at every width. wgmma_tf32's (gemm::small_side_min_slice_k, 16 x width) keeps a
// slice's workspace (rows x width, written and read) small beside the operand it streams; here a tile does three MMAs
// per k8 step, three times the work per byte of workspace, and at 16 x width a few 64-wide tiles over a K of about a
// thousand would run unsplit: few SMs at work, and each output's total one long chain of promotions.
constexpr int kMinSliceK = 256;

// Runs k (C of rows x columns in the kernel's orientation, on path kPath) at promotion interval kPromoteK: where the
// tiles are fewer than the SMs, through K slices that share them out evenly (as wgmma_tf32's small sides, slices at
// least kMinSliceK deep); else over whole tiles with a split tail, whose pieces cost less than a workspace of C.
template <gemm::OperandPath kPath, int kPromoteK>
mm_status run_product(const GemmArgs& k, int64_t rows, int64_t columns, int sms, cudaStream_t stream) {
    const int width = tile_width(columns);
    const int64_t tiles = tiles_of(rows, gemm::kRegisterTileRows) * tiles_of(columns, width);
    const int splits = tiles >= sms ? 1 : gemm::choose_balanced_tf32_splits(tiles, k.K, sms, kMinSliceK);
    const gemm::RegisterOperandLaunchers l = launchers<kPath, kPromoteK>(width);
    if (splits > 1) return gemm::run_split_k(k, splits, kBK, l.slices, stream);
    return l.whole_tiles(k, stream);
}

template <gemm::OperandPath kPath>
mm_status run_at_promotion(const GemmArgs& k, int64_t rows, int64_t columns, int sms, cudaStream_t stream) {
    return k.K < kMiddleK ? run_product<kPath, kShortPromoteK>(k, rows, columns, sms, stream)
           : k.K < kLongK ? run_product<kPath, kMiddlePromoteK>(k, rows, columns, sms, stream)
                          : run_product<kPath, kLongPromoteK>(k, rows, columns, sms, stream);
}

constexpr auto kRowMajorKernel = &wgmma_3xtf32_register_split_kernel<kMaxWidth, false, false, false, kLongPromoteK>;

}  // namespace

// wgmma and the bulk tensor copies need a Hopper GPU and this file's sm_90a machine code.
mm_status requires_wgmma_3xtf32_register_split() {
    return gemm::require_bulk_copy(gemm::machine_code_of<kRowMajorKernel>(), "wgmma_3xtf32_register_split");
}

mm_status launch_wgmma_3xtf32_register_split(const GemmArgs& g, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const bool a_n = g.op_a == MM_OP_N, b_t = g.op_b == MM_OP_T;
    const gemm::OperandPath path = gemm::register_operand_path(g, true);
    const bool direct = path == gemm::OperandPath::kDirect;
    // One allocation: the smaller operand's big and small planes (its rows x K each, K along their rows), then the
    // non-finite flags of A's rows (M) and of B's columns (N) (the layout Rung::launch reads).
    const int64_t planes_rows = direct ? g.N : g.M, ld = padded_ld(g.K);
    const size_t plane = size_t(planes_rows) * size_t(ld);
    DeviceBuffer parts(stream, DeviceBuffer::Pool::kWorkspace), a_rows(stream, DeviceBuffer::Pool::kWorkspace);
    MM_TRY(parts.allocate(2 * sizeof(float) * plane + sizeof(int) * (size_t(g.M) + size_t(g.N)),
                          "the split K-major copy of the smaller operand"));
    float* const big = parts.data();
    int* const a_row_flags = reinterpret_cast<int*>(big + 2 * plane);
    int* const b_column_flags = a_row_flags + g.M;
    MM_TRY(mm_check_cuda(cudaMemsetAsync(a_row_flags, 0, sizeof(int) * (size_t(g.M) + size_t(g.N)), stream),
                         "cudaMemsetAsync"));
    GemmArgs k = g;
    if (direct) {
        // A, the register operand, as stored when the copy engine takes it, else gathered K-major (unsplit: the
        // kernel splits it); B split into its planes, N x K.
        if (!a_n || !gemm::bulk_copy_takes_rows(g.A, g.lda))
            MM_TRY(gemm::gathered_copy(g.A, g.M, g.K, a_n ? g.lda : 1, a_n ? 1 : g.lda, false, a_rows,
                                       "the K-major copy of A", &k.A, &k.lda, stream));
        MM_TRY(gemm::launch_tf32_split_gather(g.B, g.N, g.K, b_t ? g.ldb : 1, b_t ? 1 : g.ldb, big, big + plane,
                                              b_column_flags, ld, stream));
        k.B = big, k.ldb = ld, k.op_a = MM_OP_N, k.op_b = MM_OP_T;
        MM_TRY(run_at_promotion<gemm::OperandPath::kDirect>(k, g.M, g.N, sms, stream));
    } else {
        // A split into its planes, M x K; B, the register operand, as stored.
        MM_TRY(gemm::launch_tf32_split_gather(g.A, g.M, g.K, a_n ? g.lda : 1, a_n ? 1 : g.lda, big, big + plane,
                                              a_row_flags, ld, stream));
        k.A = big, k.lda = ld, k.op_a = MM_OP_N;
        MM_TRY(path == gemm::OperandPath::kTransposedMnMajor
                   ? run_at_promotion<gemm::OperandPath::kTransposedMnMajor>(k, g.N, g.M, sms, stream)
                   : run_at_promotion<gemm::OperandPath::kTransposedKMajor>(k, g.N, g.M, sms, stream));
    }
    return gemm::launch_nonfinite_fixup(g, a_row_flags, b_column_flags, stream);
}
