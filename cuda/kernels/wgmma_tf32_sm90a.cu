// wgmma_tf32: Hopper warpgroup MMA on TF32 tensor cores, warp-specialised and persistent.
//
// Technique: each block owns one SM and walks 128 x 256 output tiles (a persistent grid, tiles in rasterisation
// bands for L2 reuse), 128 x 128 tiles where C is narrow or small (narrow_tiles), or tiles of 8 to 64 columns fitted
// to a small side of C (tile_width). Its 384 threads have two
// roles that run ahead of one another through an mbarrier ring instead of block barriers:
//   - a producer warp, of which one thread issues the bulk tensor copies (TMA) of each K tile of 32: the A tile and
//     the B tile into one of four 48 KiB stages, 128-byte swizzled, completing on the stage's "full" barrier;
//   - two consumer warpgroups that only compute: each loads its 64 rows of the A tile (see Layouts), rounds them to
//     TF32 in registers and issues wgmma.mma_async m64n256k8 with A from registers and B from shared memory
//     (core/mma/wgmma_tf32.cuh), keeping one K tile's MMAs in flight while it prepares the next, and gives each
//     stage back on its "empty" barrier once the MMAs that read it retire.
// setmaxnreg moves registers from the producer warpgroup to the consumers: 128 accumulators and two sets of A
// fragments per consumer thread. The epilogue writes the accumulators straight from registers to C (float2 stores,
// which the warps do not wait for) while the producer already fills the stages of the block's next tile.
//
// Composition: the roles, the ring's storage and barriers, the register budgets and the persistent walk are the
// Hopper frame (core/kernel/warp_specialized.cuh); this file gives its parts: Producer (a stage's copies), Mainloop
// (the fragments and MMAs of a unit's K tiles), Epilogue (the accumulators into C) and the schedule
// gemm::PersistentTiles.
//
// Layouts: TF32 wgmma reads its shared-memory operand K-major only (the transposed form is for 16-bit types) and
// as raw fp32, by truncation, while the consumers load and round the register operand themselves, in any order. So
// the operand that is not K-major goes into registers, and the one in shared memory passes once through a rounding
// copy over global memory first (core/layout/rearrange.h):
//   - B stored K x N (op_b = N) with rows the copy engine takes, and A no larger than B or stored K x M: the kernel
//     computes C's transpose, B^T·A^T. B^T is the register operand, brought as stored in MN-major boxes of 32
//     columns, 128-byte swizzled, whose fragments the consumers read with scalar shared loads; A^T is the
//     shared-memory operand, for which A is rounded (a copy of contiguous rows when stored M x K); the epilogue
//     writes each accumulator pair to its transposed place in C.
//   - B stored N x K (op_b = T, as a linear layer's weight lies) with rows the copy engine takes, and A smaller: C's
//     transpose as well, B^T read as stored, K-major, with ldmatrix; A is rounded as above.
//   - otherwise A is the register operand, read with ldmatrix (as stored when the copy engine takes it, else gathered
//     K-major first), and B is made K-major and rounded (a transposing gather when stored K x N).
// The alternatives measure worse: rounding A's tiles in shared memory instead, by the producer warpgroup's idle
// warps, costs much of the kernel's speed; leaving them unrounded (truncated by the tensor cores) puts the error
// well above cuBLAS TF32's; a pass in shared memory that transposes and rounds B is slower still
// (docs/experiments/2026-12-01-operand-passes.md, 2026-12-01-wgmma-tf32.md).
//
// Rounding is to nearest, ties away from zero (cvt.rna.tf32.f32), as in mma_tf32. Long K is cut into slices
// (split-K, core/schedule/split_k.h), both to fill the SMs and to keep each accumulation chain within
// kTf32MaxChainK. Where every tile's slices (at most gemm::kMaxClusterSlices) run at once as one thread block
// cluster, the cluster adds them up in shared memory and writes C (core/epilogue/warpgroup_cluster_sum.cuh): no
// workspace and no reduction kernel, the same bits. Where the tiles fill the SMs and K is not split, the ragged last
// wave's tiles go in K pieces that every block shares when gemm::split_tail's model finds that shorter, and a pass
// sums the pieces into C (schedule/split_tail.h, as wgmma_3xtf32 does).
//
// Changes vs mma_tf32: warpgroup MMAs with B read by the tensor cores from shared memory instead of warp MMAs from
// register fragments; TMA copies on an mbarrier ring instead of cp.async; a producer warp and consumer warpgroups
// instead of warps that all copy and compute; a persistent grid; one rounding pass over A or B before the kernel.
//
// Tile: 128 x 256 x 32, 4 stages of 48 KiB (A 16 KiB + B 32 KiB), 384 threads (one producer warpgroup, of which
// one thread works, and two consumer warpgroups; setmaxnreg 40 / 232), one block per SM. The narrow tile,
// 128 x 128 x 32 (wgmma m64n128k8, 64 accumulators per consumer thread, stages of 32 KiB), serves a narrow or small
// C, as narrow_tiles below decides: less padding, or twice the tiles where the wide ones cannot fill the SMs.
// Tiles of a small side, 128 x 8, 16, 24, 32 or 64 (m64n8k8 to m64n64k8, kBN / 2 accumulators per consumer
// thread), serve a C of at most 64 columns in the kernel's orientation: one tile spans them at any width, and the
// narrowest that covers them pads the fewest MMAs. Their stages are nearly all the large operand's tile, so they
// keep 8 stages of it in flight instead of 4, and their K is cut into the slices that share it out most evenly
// over the SMs (tile_splits).
//
// What limits it: the rounding pass before the kernel, which moves 2 x K x (M or N) x 4 bytes for 2 x M x N x K
// FLOP, so its share grows as the other dimension shrinks (measured in docs/experiments/2026-12-01-wgmma-tf32.md and
// docs/experiments/2026-12-01-operand-passes.md).
#include "core/device.h"
#include "core/device_buffer.h"
#include "core/kernel/register_operand.cuh"
#include "core/layout/rearrange.h"
#include "kernels/wgmma_tf32.h"

#include <atomic>
#include <type_traits>

namespace {

constexpr int kBM = gemm::kRegisterTileRows, kBK = gemm::kRegisterTileK;
constexpr int kNarrowBN = 128;  // the narrow tile's width; the wide one's is gemm::kWgmmaN
constexpr int kMaxSmallSide = 64;  // the widest of a small side's tiles (tile_width)

// The tiles of kBN columns (the wide tile, gemm::kWgmmaN, the narrow one or a small side's), with one shared-memory
// plane (the rounded copy). Four stages; a small side's tiles, whose stages are nearly all the register operand's
// tile and whose MMAs are short, stream that operand and keep twice the stages of it in flight.
template <int kBN>
using Width = gemm::RegisterOperandShape<kBN, 1, kBN <= kMaxSmallSide ? 8 : 4>;
using Params = gemm::RegisterOperandParams<1>;

// A consumer warpgroup's MMAs over a unit's K tiles into its 64 x kBN accumulators: for each K tile, its 64 rows of
// the register operand's tile loaded into a set of fragment registers and rounded to TF32, and the MMAs with B
// from shared memory issued; one K tile's MMAs stay in flight while the next tile's fragments are loaded into the
// other set. kMnMajor: the register operand's tile is MN-major (gemm::RegisterOperandProducer).
template <int kBN, bool kMnMajor>
class Mainloop {
  public:
    using Accumulators = float[Width<kBN>::kAccumulators];
    using Storage = typename Width<kBN>::Storage;
    using Ring = typename Width<kBN>::Ring;

    __device__ __forceinline__ explicit Mainloop(int consumer_index) : fragments_(consumer_index) {}

    // The unit's K tiles from the ring at r on, every MMA retired and every stage given back at the end.
    __device__ __forceinline__ void operator()(Storage& st, Ring& r, const gemm::TileUnit& w) {
        int retiring = -1;  // the stage whose MMAs the next wait retires
        // One K tile: its fragments into register set kSet, rounded to TF32, and its MMAs issued; then the previous
        // tile's MMAs retired and their stage given back.
        const auto step = [&](auto set, int kt) {
            constexpr int kSet = decltype(set)::value;
            st.wait_full(r);
            fragments_.load(gemm::smem_addr(st.tiles.a[r.stage]), frag_[kSet]);
#pragma unroll
            for (int k8 = 0; k8 < kSteps; ++k8)
#pragma unroll
                for (int i = 0; i < 4; ++i) frag_[kSet][k8][i] = gemm::to_tf32(__uint_as_float(frag_[kSet][k8][i]));
            const uint32_t b_rows = gemm::smem_addr(st.tiles.b[r.stage][0]);
            gemm::wgmma_hold(acc_);
            gemm::wgmma_fence();
#pragma unroll
            for (int k8 = 0; k8 < kSteps; ++k8)  // 8 floats = 32 bytes further along the swizzled rows
                gemm::wgmma_tf32_step<kBN>(acc_, frag_[kSet][k8],
                                           gemm::sw128_k_major_descriptor(b_rows + 32 * k8), kt > 0 || k8 > 0);
            gemm::wgmma_commit();
            gemm::wgmma_wait<1>();
            gemm::wgmma_hold(frag_[1 - kSet]);
            if (retiring >= 0) st.release(retiring);
            retiring = r.stage;
            r.advance();
        };
        int kt = 0;
        for (; kt + 1 < w.ktiles; kt += 2) {
            step(std::integral_constant<int, 0>{}, kt);
            step(std::integral_constant<int, 1>{}, kt + 1);
        }
        if (kt < w.ktiles) step(std::integral_constant<int, 0>{}, kt);
        gemm::wgmma_wait<0>();
        gemm::wgmma_hold(acc_);
        gemm::wgmma_hold(frag_[0]);
        gemm::wgmma_hold(frag_[1]);
        st.release(retiring);
    }

    __device__ __forceinline__ const Accumulators& result() const { return acc_; }

  private:
    static constexpr int kSteps = kBK / gemm::kWgmmaK;
    gemm::RegisterFragments<kMnMajor> fragments_;
    Accumulators acc_;
    uint32_t frag_[2][kSteps][4];  // two sets of fragments: one tile's in flight, the next tile's being loaded
};

// The accumulators into C or a tail piece (gemm::store_register_operand_tile). kTransposed: the schedule is of C's
// transpose.
template <int kBN, bool kAligned, bool kTransposed>
struct Epilogue {
    __device__ __forceinline__ static void store(const float (&acc)[Width<kBN>::kAccumulators],
                                                 const gemm::TileUnit& w, int consumer_index, const Params& p) {
        gemm::store_register_operand_tile<kBN, kAligned, kTransposed>(acc, w, consumer_index, p);
    }
};

constexpr int kThreads = Width<gemm::kWgmmaN>::kFrame.threads();

// kClusterSum: a launch in clusters along z whose blocks each take one K slice of their cluster's tile and sum the
// slices into C (gemm::RegisterOperandClusterSum); else the persistent walk, each unit into C, its slice or a piece.
template <int kBN, bool kAligned, bool kMnMajor, bool kTransposed, bool kClusterSum>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_tf32_kernel(const __grid_constant__ gemm::RegisterOperandMaps<1> maps, gemm::SliceOutput out, float* pieces,
                      gemm::PersistentSchedule s) {
    using W = Width<kBN>;
    static_assert(W::kFrame.threads() == kThreads, "every width's block has the same threads");
    using Schedule = std::conditional_t<kClusterSum, typename W::ClusterSchedule, typename W::Schedule>;
    using Finish = std::conditional_t<kClusterSum, gemm::RegisterOperandClusterSum<W, kBN, kTransposed>,
                                      Epilogue<kBN, kAligned, kTransposed>>;
    gemm::warp_specialized<W::kFrame, typename W::Tiles, Schedule, gemm::RegisterOperandProducer<W, 1, kMnMajor>,
                           Mainloop<kBN, kMnMajor>, Finish>(Params{&maps, out, pieces, nullptr, s});
}

// The rung's launches (gemm::launch_on_path, gemm::launch_register_operand_clusters): t is the kernel's problem, its
// B the rounded copy.
struct Rung {
    template <int kBN, bool kAligned, bool kMnMajor, bool kTransposed>
    static mm_status launch(const GemmArgs& t, const gemm::PersistentSchedule& s, int blocks, gemm::SliceOutput out,
                            float* pieces, cudaStream_t stream) {
        return launch_kernel<&wgmma_tf32_kernel<kBN, kAligned, kMnMajor, kTransposed, false>, kBN, kMnMajor>(
            t, s, dim3(unsigned(blocks)), 1, out, pieces, stream);
    }

    // One cluster of s.splits() blocks along z per tile, which writes the tile's sum to out.
    template <int kBN, bool kMnMajor, bool kTransposed>
    static mm_status launch_clusters(const GemmArgs& t, const gemm::PersistentSchedule& s, gemm::SliceOutput out,
                                     cudaStream_t stream) {
        return launch_kernel<&wgmma_tf32_kernel<kBN, false, kMnMajor, kTransposed, true>, kBN, kMnMajor>(
            t, s, dim3(unsigned(s.tiles()), 1, unsigned(s.splits())), unsigned(s.splits()), out, nullptr, stream);
    }

    // How many clusters of `splits` blocks of the cluster kernel run at once on the current GPU.
    template <int kBN, bool kMnMajor, bool kTransposed>
    static mm_status max_active_clusters(int splits, int* clusters) {
        constexpr auto kernel = &wgmma_tf32_kernel<kBN, false, kMnMajor, kTransposed, true>;
        MM_TRY(gemm::allow_shared_memory<kernel>(Width<kBN>::kSmemBytes, "cudaFuncSetAttribute"));
        return gemm::max_active_clusters<kernel, gemm::kMaxClusterSlices, 0>(splits, 0, kThreads,
                                                                             Width<kBN>::kSmemBytes, clusters);
    }

  private:
    template <auto kKernel, int kBN, bool kMnMajor>
    static mm_status launch_kernel(const GemmArgs& t, const gemm::PersistentSchedule& s, dim3 grid, unsigned cluster_z,
                                   gemm::SliceOutput out, float* pieces, cudaStream_t stream) {
        constexpr int kSmemBytes = Width<kBN>::kSmemBytes;
        gemm::RegisterOperandMaps<1> maps;
        const float* const planes[1] = {t.B};
        MM_TRY((gemm::encode_register_operand_maps<kKernel, kBN, 1, kMnMajor>(t, planes, kSmemBytes, &maps)));
        return gemm::launch_in_clusters(cluster_z, kKernel, grid, kThreads, kSmemBytes, stream, "wgmma_tf32", maps,
                                        out, pieces, s);
    }
};

// Pieces of a split tail are at least this many K tiles deep.
constexpr int kMinPieceKTiles = 4;

// The rung's widths: the small side's, then the narrow and the wide tile's.
using Widths = gemm::SmallSideWidths::Plus<kMaxSmallSide, kNarrowBN, gemm::kWgmmaN>;

template <gemm::OperandPath kPath>
gemm::RegisterOperandLaunchers launchers(int width) {
    return Widths::launchers<Rung, kPath, kMinPieceKTiles, gemm::kWgmmaN>(width);
}

template <gemm::OperandPath kPath>
gemm::RegisterOperandClusters clusters(int width) {
    return Widths::clusters<Rung, kPath, gemm::kWgmmaN>(width);
}

// Set by wgmma_tf32::force: a width for every product (0: the rule's), whether the K-major transposed path runs,
// and whether a ragged last wave may be split.
std::atomic<int> forced_width{0};
std::atomic<bool> k_major_transpose{true};
std::atomic<bool> split_tails{true};

// True where the narrow tile serves a kernel-oriented C of `rows` x `columns`, depth K, on `sms` SMs, rather than
// the wide one: where it covers C's columns in at most three quarters of the wide tiles' width (a C of 100 or 300
// columns), or where the wide tiles, even with K split to fill the SMs, run on fewer than half of them (a small C).
// Elsewhere the wide tile's B tile feeds twice the MMAs. Where the two cover the columns alike and the wide tiles
// fill the SMs through split-K, the narrow tile would take fewer slices over a deeper K each and run no faster.
bool narrow_tiles(int64_t rows, int64_t columns, int K, int sms) {
    const int64_t wide = tiles_of(columns, gemm::kWgmmaN), narrow = tiles_of(columns, kNarrowBN);
    const int64_t wide_tiles = tiles_of(rows, kBM) * wide;
    const int64_t wide_units = wide_tiles * gemm::choose_tf32_splits(wide_tiles, K, sms, 1);
    return 4 * narrow * kNarrowBN <= 3 * wide * gemm::kWgmmaN || 2 * wide_units < sms;
}

// The width of the tiles for such a C. A small side (at most kMaxSmallSide columns): the narrowest width that covers
// it (gemm::SmallSideWidths). Otherwise the narrow or the wide tile.
int tile_width(int64_t rows, int64_t columns, int K, int sms) {
    if (const int forced = forced_width.load()) return forced;
    if (columns <= kMaxSmallSide) return gemm::SmallSideWidths::covering(columns, kMaxSmallSide);
    return narrow_tiles(rows, columns, K, sms) ? kNarrowBN : gemm::kWgmmaN;
}

// K slices for `tiles` tiles of `width` columns. A small side's tiles stream their large operand, and a slice adds
// little beside it (its workspace, rows x width written and read, against rows x its K read), so they take the
// count that shares the K tiles out most evenly over the SMs, with every slice at least
// gemm::small_side_min_slice_k(width) deep. Wider tiles split to fill one wave.
int tile_splits(int64_t tiles, int width, int K, int sms) {
    if (width <= kMaxSmallSide)
        return gemm::choose_balanced_tf32_splits(tiles, K, sms, gemm::small_side_min_slice_k(width));
    return gemm::choose_tf32_splits(tiles, K, sms, 1);
}

// Runs g (C of rows x columns in the kernel's orientation) on path kPath: through split-K where its tiles take K
// slices (summed by each tile's cluster where every cluster runs at once, else by the reduction), else over whole
// tiles with a split tail.
template <gemm::OperandPath kPath>
mm_status run_tf32(const GemmArgs& k, int64_t rows, int64_t columns, int sms, cudaStream_t stream) {
    const int width = tile_width(rows, columns, k.K, sms);
    const int64_t tiles = tiles_of(rows, kBM) * tiles_of(columns, width);
    const int splits = tile_splits(tiles, width, k.K, sms);
    const gemm::RegisterOperandLaunchers l = launchers<kPath>(width);
    if (splits > 1 || !split_tails.load()) {
        const gemm::RegisterOperandClusters c = clusters<kPath>(width);
        return gemm::run_split_k_in_clusters(k, splits, kBK, l.slices, c.launch, c.fit, stream);
    }
    return l.whole_tiles(k, stream);
}

constexpr auto kRowMajorKernel = &wgmma_tf32_kernel<gemm::kWgmmaN, false, false, false, false>;

}  // namespace

bool wgmma_tf32::is_width(int width) { return Widths::has(width); }

void wgmma_tf32::force(int width, bool k_major, bool split_tail) {
    forced_width = width;
    k_major_transpose = k_major;
    split_tails = split_tail;
}

// wgmma and the bulk tensor copies need a Hopper GPU and this file's sm_90a machine code.
mm_status requires_wgmma() { return gemm::require_bulk_copy(gemm::machine_code_of<kRowMajorKernel>(), "wgmma_tf32"); }

mm_status launch_wgmma_tf32(const GemmArgs& g, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    DeviceBuffer a_rows(stream, DeviceBuffer::Pool::kWorkspace), b_rows(stream, DeviceBuffer::Pool::kWorkspace);
    GemmArgs k = g;
    const bool a_n = g.op_a == MM_OP_N, b_t = g.op_b == MM_OP_T;
    const gemm::OperandPath path = gemm::register_operand_path(g, k_major_transpose.load());
    // The transposed paths: one pass rounds A (made K-major when stored K x M), since the tensor cores read it from
    // shared memory; B is read as stored.
    if (path != gemm::OperandPath::kDirect) {
        MM_TRY(gemm::gathered_copy(g.A, g.M, g.K, a_n ? g.lda : 1, a_n ? 1 : g.lda, true, a_rows,
                                   "the rounded K-major copy of A", &k.A, &k.lda, stream));
        k.op_a = MM_OP_N;
        return path == gemm::OperandPath::kTransposedMnMajor
                   ? run_tf32<gemm::OperandPath::kTransposedMnMajor>(k, g.N, g.M, sms, stream)
                   : run_tf32<gemm::OperandPath::kTransposedKMajor>(k, g.N, g.M, sms, stream);
    }
    // The direct path: A and B as M x K and N x K, both with K along their rows. A as stored when the copy engine
    // takes it (its rounding happens in registers), else gathered K-major.
    if (!a_n || !gemm::bulk_copy_takes_rows(g.A, g.lda))
        MM_TRY(gemm::gathered_copy(g.A, g.M, g.K, a_n ? g.lda : 1, a_n ? 1 : g.lda, false, a_rows,
                                   "the K-major copy of A", &k.A, &k.lda, stream));
    // B passes through one rounding copy: the tensor cores read it from shared memory, where a rounding pass would
    // cost more than this one over global memory, and TF32 wgmma needs it K-major.
    MM_TRY(gemm::gathered_copy(g.B, g.N, g.K, b_t ? g.ldb : 1, b_t ? 1 : g.ldb, true, b_rows,
                               "the rounded K-major copy of B", &k.B, &k.ldb, stream));
    k.op_a = MM_OP_N;
    k.op_b = MM_OP_T;
    return run_tf32<gemm::OperandPath::kDirect>(k, g.M, g.N, sms, stream);
}
