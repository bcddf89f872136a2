// The parts of the Hopper kernels whose larger operand is wgmma's register operand, read as it is stored (device
// and host): wgmma_tf32 and wgmma_3xtf32_register_split compose them in the warp-specialised frame
// (core/kernel/warp_specialized.cuh), each with a mainloop of its own.
//
// TF32 wgmma reads its shared-memory operand K-major only and as raw fp32 (by truncation), while the consumers load
// the register operand themselves, in any order, and can round or split it on the way in. So the larger operand
// is the register operand, brought in tiles of kRegisterTileRows rows (two consumer warpgroups of 64) by
// kRegisterTileK of K as it lies, and never passes over memory before the kernel; the smaller one is the
// shared-memory operand, which a pass before the kernel makes K-major and TF32: one rounded plane, or the two planes
// of a split. The kernel computes C or C's transpose (OperandPath):
//   - kDirect: A is the register operand, stored M x K (K-major, read with ldmatrix); B, the shared-memory operand,
//     comes as its copy N x K.
//   - kTransposedMnMajor: C's transpose B^T·A^T; B^T, stored K x N (MN-major), is the register operand, brought in
//     boxes of 32 of its rows whose fragments the consumers read with scalar shared loads; A^T's planes come from A's
//     copy M x K.
//   - kTransposedKMajor: the same with B stored N x K (K-major, as a linear layer's weight lies), read with ldmatrix.
// The transposed paths write each accumulator pair to its transposed place in C.
#pragma once

#include <cstdint>

#include "core/copy/bulk_tensor.cuh"
#include "core/copy/tensor_map.h"
#include "core/epilogue/direct_store.cuh"
#include "core/epilogue/warpgroup_cluster_sum.cuh"
#include "core/kernel/warp_specialized.cuh"
#include "core/launch.h"
#include "core/mma/wgmma_tf32.cuh"
#include "core/problem.h"
#include "core/schedule/persistent_tiles.cuh"
#include "core/schedule/split_k.h"
#include "core/schedule/split_tail.h"

namespace gemm {

constexpr int kRegisterTileRows = 128;  // the register operand's rows per tile: two consumer warpgroups of 64
constexpr int kRegisterTileK = 32;      // one 128-byte swizzled row of fp32 per row of a tile
constexpr int kRegisterTileBytes = kRegisterTileRows * kRegisterTileK * int(sizeof(float));
static_assert(kRegisterTileK * sizeof(float) == 128 && kRegisterTileBytes % kSwizzleAtomBytes == 0, "aligned tiles");

enum class OperandPath { kDirect, kTransposedMnMajor, kTransposedKMajor };

// The path for C = A·B (host): a transposed one where B can be read as stored and A is the smaller operand (with
// B stored K x N, also where A is stored K x M, which the direct path would gather as well); k_major_transpose
// false keeps a B stored N x K on the direct path.
inline OperandPath register_operand_path(const GemmArgs& g, bool k_major_transpose) {
    const bool a_n = g.op_a == MM_OP_N, b_t = g.op_b == MM_OP_T;
    if (!bulk_copy_takes_rows(g.B, g.ldb)) return OperandPath::kDirect;
    if (!b_t && (g.M <= g.N || !a_n)) return OperandPath::kTransposedMnMajor;
    if (b_t && g.M < g.N && k_major_transpose) return OperandPath::kTransposedKMajor;
    return OperandPath::kDirect;
}

// The product the kernel computes on path kPath for C = A·B, given A's and B's forms on that path (kDirect: A
// stored M x K, B's copy N x K; transposed: A's copy M x K, B as stored): g itself, or C's transpose, whose C is C.
template <OperandPath kPath>
GemmArgs register_operand_problem(const GemmArgs& g) {
    if constexpr (kPath == OperandPath::kDirect) return g;
    GemmArgs t = g;
    t.M = g.N, t.N = g.M;
    t.A = g.B, t.lda = g.ldb, t.op_a = kPath == OperandPath::kTransposedMnMajor ? MM_OP_T : MM_OP_N;
    t.B = g.A, t.ldb = g.lda, t.op_b = MM_OP_T;
    return t;
}

// A kernel over tiles of kRegisterTileRows x kBN with kPlanes shared-memory planes of the other operand and kStages
// stages: its block (one producer and two consumer warpgroups, setmaxnreg moving the producer's registers to the
// consumers), the ring's tiles, the shared storage and the schedule (with split tails).
template <int kBN, int kPlanes, int kStages>
struct RegisterOperandShape {
    static_assert(kBN % 8 == 0 && kBN <= kWgmmaN, "a width of wgmma's N");
    static constexpr WarpSpecialized kFrame{.stages = kStages, .consumers = 2, .producer_registers = 40,
                                            .consumer_registers = 232};
    static_assert(kRegisterTileRows == 64 * kFrame.consumers, "each consumer warpgroup owns 64 rows and every column");
    static constexpr int kBBytes = kBN * kRegisterTileK * int(sizeof(float));
    static_assert(kBBytes % kSwizzleAtomBytes == 0, "aligned tiles");
    static constexpr int kAccumulators = kBN / 2;  // 64 x kBN fp32 over a warpgroup's 128 threads

    // The ring's tiles, at the start of the frame's 1,024-byte aligned storage.
    struct Tiles {
        float a[kStages][kRegisterTileBytes / 4];
        float b[kStages][kPlanes][kBBytes / 4];
    };
    using Storage = WarpSpecializedStorage<Tiles, kStages>;
    using Ring = RingPosition<kStages>;
    static constexpr int kSmemBytes = kWarpSpecializedSmemBytes<Storage>;
    static_assert(fits_shared_memory(kSmemBytes, 1), "one block per SM");
    using Schedule = PersistentTiles<kRegisterTileRows, kBN, true>;
    using ClusterSchedule = ClusterSliceTiles<kRegisterTileRows, kBN>;  // a launch whose clusters sum K slices
};

// The tensor maps of a launch: the register operand's and each shared-memory plane's.
template <int kPlanes>
struct RegisterOperandMaps {
    CUtensorMap a;
    CUtensorMap b[kPlanes];
};

// The kernel's parameters as its parts read them: the tensor maps (its __grid_constant__ parameter), where the units
// that write C go (K slices of a split-K launch each at their slice), where the pieces of a split tail go
// (schedule.tail_splits > 1: dense kRegisterTileRows x kBN tiles by TileUnit::piece, C's kBN x kRegisterTileRows
// ones when transposed), where the kernel marks the register operand's rows it cannot carry (a kernel that does
// not mark any gets nullptr), and the schedule.
template <int kPlanes>
struct RegisterOperandParams {
    const RegisterOperandMaps<kPlanes>* maps;
    SliceOutput out;
    float* pieces;
    int* row_flags;
    PersistentSchedule schedule;
};

// The copies of one stage: the register operand's tile and the K tile of each shared-memory plane. kMnMajor: the
// register operand comes in kRegisterTileRows / 32 boxes of 32 rows (the MN-major form, core/copy/tensor_map.h)
// instead of one K-major box.
template <class Shape, int kPlanes, bool kMnMajor>
struct RegisterOperandProducer {
    static constexpr uint32_t kStageBytes = kRegisterTileBytes + kPlanes * Shape::kBBytes;

    __device__ __forceinline__ static void prefetch(const RegisterOperandParams<kPlanes>& p) {
        prefetch_tensor_map(&p.maps->a);
        for (int plane = 0; plane < kPlanes; ++plane) prefetch_tensor_map(&p.maps->b[plane]);
    }

    __device__ __forceinline__ static void load(typename Shape::Tiles& tiles, int stage, uint32_t full,
                                                const TileUnit& w, int kt, const RegisterOperandParams<kPlanes>& p) {
        if constexpr (kMnMajor) {
#pragma unroll
            for (int box = 0; box < kRegisterTileRows / 32; ++box)
                bulk_tensor_load_2d(smem_addr(tiles.a[stage]) + box * mn_major_box_bytes<kRegisterTileK>(),
                                    &p.maps->a, full, w.m0 + 32 * box, kt * kRegisterTileK);
        } else {
            bulk_tensor_load_2d(smem_addr(tiles.a[stage]), &p.maps->a, full, kt * kRegisterTileK, w.m0);
        }
#pragma unroll
        for (int plane = 0; plane < kPlanes; ++plane)
            bulk_tensor_load_2d(smem_addr(tiles.b[stage][plane]), &p.maps->b[plane], full, kt * kRegisterTileK,
                                w.n0);
    }
};

// The encoded maps of t (the kernel's problem: its A the register operand, its B the first plane, the other planes
// laid out as it is) for kernel kKernel with smem_bytes of shared memory, which this also allows it.
template <auto kKernel, int kBN, int kPlanes, bool kMnMajor>
mm_status encode_register_operand_maps(const GemmArgs& t, const float* const (&planes)[kPlanes], int smem_bytes,
                                       RegisterOperandMaps<kPlanes>* maps) {
    MM_TRY(allow_shared_memory<kKernel>(smem_bytes, "cudaFuncSetAttribute"));
    if constexpr (kMnMajor)
        MM_TRY(encode_mn_major_map(t.A, t.K, t.M, t.lda, kRegisterTileK, &maps->a, "the register operand"));
    else
        MM_TRY(encode_k_major_map(t.A, t.M, t.K, t.lda, kRegisterTileRows, kRegisterTileK, &maps->a,
                                  "the register operand"));
    for (int plane = 0; plane < kPlanes; ++plane)
        MM_TRY(encode_k_major_map(planes[plane], t.N, t.K, t.ldb, kBN, kRegisterTileK, &maps->b[plane],
                                  "the shared-memory operand"));
    return MM_OK;
}

__device__ __forceinline__ uint32_t load_shared_b32(uint32_t addr) {
    uint32_t x;
    asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(x) : "r"(addr));
    return x;
}

// A consumer thread's fragments of the register operand's tile, as raw fp32 bits, in the A fragment layout of
// core/mma/wgmma_tf32.cuh: a0 (row r, k t), a1 (r + 8, t), a2 (r, t + 4), a3 (r + 8, t + 4) of each k8 step, where
// r = 64 c + 16 w + g for consumer warpgroup c, warp w of it, g = lane / 4 and t = lane % 4.
template <bool kMnMajor>
class RegisterFragments {
  public:
    __device__ __forceinline__ explicit RegisterFragments(int consumer_index) {
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
        // This lane's row of the ldmatrix boxes (core/mma/tf32_mma_sync.cuh) and its column half.
        ldmatrix_row_ = 64 * consumer_index + 16 * warp + lane % 16;
        ldmatrix_half_ = lane / 16;
        // MN-major: its fragment elements as offsets in the tile; a k8 step is 8 box rows (1 KiB) further on.
        row_ = 64 * consumer_index + 16 * warp + lane / 4;
        const int t = lane % 4;
        offset_[0] = mn_major_sw128_offset<kRegisterTileK>(row_, t);
        offset_[1] = mn_major_sw128_offset<kRegisterTileK>(row_ + 8, t);
        offset_[2] = mn_major_sw128_offset<kRegisterTileK>(row_, t + 4);
        offset_[3] = mn_major_sw128_offset<kRegisterTileK>(row_ + 8, t + 4);
    }

    // The fragments of the kSteps k8 steps of the tile at shared-window address `tile`.
    template <int kSteps>
    __device__ __forceinline__ void load(uint32_t tile, uint32_t (&frag)[kSteps][4]) const {
        if constexpr (kMnMajor) {
#pragma unroll
            for (int k8 = 0; k8 < kSteps; ++k8)
#pragma unroll
                for (int i = 0; i < 4; ++i) frag[k8][i] = load_shared_b32(tile + offset_[i] + 1024 * k8);
        } else {
            const uint32_t rows = tile + ldmatrix_row_ * 128;
#pragma unroll
            for (int k8 = 0; k8 < kSteps; ++k8)
                ldmatrix_x4(frag[k8], rows + (((2 * k8 + ldmatrix_half_) ^ (ldmatrix_row_ % 8)) << 4));
        }
    }

    // The tile's row of this thread's a0 and a2 (a1 and a3 lie 8 rows further).
    __device__ __forceinline__ int row() const { return row_; }

  private:
    int ldmatrix_row_, ldmatrix_half_, row_;
    uint32_t offset_[4];
};

// A consumer warpgroup's 64 x kBN accumulators straight from registers into the unit's K slice of C (float2 stores,
// which the warps do not wait for), or, for a tail piece, into the piece's dense tile for launch_tail_reduce.
// kTransposed: the schedule is of C's transpose (C has s.N rows and s.M columns), and a piece is C's kBN x
// kRegisterTileRows tile.
template <int kBN, bool kAligned, bool kTransposed, class Params>
__device__ __forceinline__ void store_register_operand_tile(const float (&acc)[kBN / 2], const TileUnit& w,
                                                            int consumer_index, const Params& p) {
    if (w.piece < 0)
        store_warpgroup_tile<kBN, kAligned, kTransposed>(acc, p.out.base + int64_t(w.slice) * p.out.slice_stride,
                                                         p.out.ld, p.schedule.M, p.schedule.N, w.m0, w.n0,
                                                         consumer_index);
    else
        store_warpgroup_tile<kBN, !kTransposed, kTransposed>(
            acc, p.pieces + int64_t(w.piece) * (kRegisterTileRows * kBN), kTransposed ? kRegisterTileRows : kBN,
            kRegisterTileRows, kBN, 0, 0, consumer_index);
}

// The epilogue of a launch in clusters of K slices (Shape::ClusterSchedule): the consumer warpgroups' accumulators
// summed over the cluster into C (p.out.base, leading dimension p.out.ld), in the ring of Shape's storage.
// kTransposed: the schedule is of C's transpose.
template <class Shape, int kBN, bool kTransposed>
struct RegisterOperandClusterSum {
    using Sum = WarpgroupClusterSum<kRegisterTileRows, kBN, kTransposed, int(sizeof(typename Shape::Tiles))>;

    template <class Params>
    __device__ __forceinline__ static void store(const float (&acc)[kBN / 2], const TileUnit& w, int consumer_index,
                                                 const Params& p) {
        extern __shared__ uint8_t smem_raw[];
        float* const ring = reinterpret_cast<float*>(swizzle_aligned(smem_raw));  // the frame's storage begins there
        const int rows = kTransposed ? p.schedule.N : p.schedule.M, columns = kTransposed ? p.schedule.M : p.schedule.N;
        Sum::store(acc, ring, w, consumer_index, p.out.base, p.out.ld, rows, columns);
    }
    __device__ __forceinline__ static void finish_producer() { Sum::finish_producer(); }
};

// The launches of a rung built on these parts. Rung::launch<kBN, kAligned, kMnMajor, kTransposed>(t, s, blocks, out,
// pieces, stream) launches its kernel over t (the kernel's problem on the path) with out and pieces in C's
// orientation.
template <class Rung, int kBN, OperandPath kPath, class Aligned>
mm_status launch_on_path(const GemmArgs& t, Aligned, const PersistentSchedule& s, int blocks, SliceOutput out,
                         float* pieces, cudaStream_t stream) {
    if constexpr (kPath == OperandPath::kDirect)
        return Rung::template launch<kBN, Aligned::value, false, false>(t, s, blocks, out, pieces, stream);
    else
        return Rung::template launch<kBN, false, kPath == OperandPath::kTransposedMnMajor, true>(t, s, blocks, out,
                                                                                               pieces, stream);
}

// The rung's kernel over g's K slices (a SliceLauncher over C = A·B itself), one block per SM.
template <class Rung, int kBN, OperandPath kPath>
mm_status launch_register_operand_slices(const GemmArgs& g, int /*splits*/, int ktiles_per_split, SliceOutput out,
                                         cudaStream_t stream) {
    const GemmArgs t = register_operand_problem<kPath>(g);
    return launch_persistent(t, BlockShape{kRegisterTileRows, kBN, kRegisterTileK}, ktiles_per_split, out,
                             [&](auto aligned, const PersistentSchedule& s, int blocks) {
                                 return launch_on_path<Rung, kBN, kPath>(t, aligned, s, blocks, out, nullptr, stream);
                             });
}

// The rung's kernel over g's whole tiles into C, one block per SM, the ragged last wave's tiles in K pieces at
// least min_piece_ktiles deep where split_tail finds that shorter.
template <class Rung, int kBN, OperandPath kPath, int kMinPieceKTiles>
mm_status launch_register_operand_whole_tiles(const GemmArgs& g, cudaStream_t stream) {
    const GemmArgs t = register_operand_problem<kPath>(g);
    return launch_persistent_split_tail(
        t, BlockShape{kRegisterTileRows, kBN, kRegisterTileK}, kMinPieceKTiles, stream,
        [&](auto aligned, const PersistentSchedule& s, int blocks, float* pieces) {
            return launch_on_path<Rung, kBN, kPath>(t, aligned, s, blocks, SliceOutput{g.C, g.ldc, 0}, pieces,
                                                    stream);
        },
        kPath != OperandPath::kDirect);
}

// The two launchers of a width on a path: over K slices, and over whole tiles with a split tail.
struct RegisterOperandLaunchers {
    SliceLauncher slices;
    mm_status (*whole_tiles)(const GemmArgs&, cudaStream_t);
};
template <class Rung, int kBN, OperandPath kPath, int kMinPieceKTiles>
constexpr RegisterOperandLaunchers kRegisterOperandLaunchers{
    &launch_register_operand_slices<Rung, kBN, kPath>,
    &launch_register_operand_whole_tiles<Rung, kBN, kPath, kMinPieceKTiles>};

// The rung's kernel over g's K slices in clusters along z, each cluster one tile's slices, summed into C (a
// ClusterLauncher over C = A·B). Rung::launch_clusters<kBN, kMnMajor, kTransposed>(t, s, out, stream) launches its
// cluster kernel over t (the kernel's problem on the path) with out, C, in C's orientation.
template <class Rung, int kBN, OperandPath kPath>
mm_status launch_register_operand_clusters(const GemmArgs& g, int /*splits*/, int ktiles_per_split,
                                           cudaStream_t stream) {
    const GemmArgs t = register_operand_problem<kPath>(g);
    const PersistentSchedule s =
        persistent_schedule(t, kRegisterTileRows, kBN, kRegisterTileK, ktiles_per_split);
    return Rung::template launch_clusters<kBN, kPath == OperandPath::kTransposedMnMajor,
                                          kPath != OperandPath::kDirect>(t, s, SliceOutput{g.C, g.ldc, 0}, stream);
}

// Whether every tile's cluster of `splits` blocks runs at once on this GPU (Rung::max_active_clusters<kBN, kMnMajor,
// kTransposed>(splits, &clusters) asks), where split-K's reduction would add the slices in one run: clusters that
// wait for a second wave cost more than the reduction saves.
template <class Rung, int kBN, OperandPath kPath>
mm_status register_operand_clusters_fit(const GemmArgs& g, int splits, bool* fit) {
    *fit = false;
    int sms = 0;
    MM_TRY(sm_count(&sms));
    if (slice_order_runs(g.M, g.N, splits, sms) != 1) return MM_OK;
    int clusters = 0;
    MM_TRY((Rung::template max_active_clusters<kBN, kPath == OperandPath::kTransposedMnMajor,
                                               kPath != OperandPath::kDirect>(splits, &clusters)));
    const GemmArgs t = register_operand_problem<kPath>(g);
    *fit = int64_t(clusters) >= tiles_of(t.M, kRegisterTileRows) * tiles_of(t.N, kBN);
    return MM_OK;
}

// A width's launchers of K slices summed in clusters on a path.
struct RegisterOperandClusters {
    ClusterLauncher launch;
    ClustersFit fit;
};
template <class Rung, int kBN, OperandPath kPath>
constexpr RegisterOperandClusters kRegisterOperandClusters{&launch_register_operand_clusters<Rung, kBN, kPath>,
                                                           &register_operand_clusters_fit<Rung, kBN, kPath>};

// The tile widths a rung has, narrowest first (each a wgmma N).
template <int... kWidths>
struct TileWidths {
    template <int... kWider>
    using Plus = TileWidths<kWidths..., kWider...>;

    static bool has(int width) {
        for (const int w : {kWidths...})
            if (width == w) return true;
        return false;
    }

    // The narrowest width that covers `columns`, else `otherwise`.
    static int covering(int64_t columns, int otherwise) {
        for (const int w : {kWidths...})
            if (columns <= w) return w;
        return otherwise;
    }

    // The rung's launchers at `width`, one of kWidths, else at kOtherwise.
    template <class Rung, OperandPath kPath, int kMinPieceKTiles, int kOtherwise>
    static RegisterOperandLaunchers launchers(int width) {
        RegisterOperandLaunchers chosen = kRegisterOperandLaunchers<Rung, kOtherwise, kPath, kMinPieceKTiles>;
        ((width == kWidths ? void(chosen = kRegisterOperandLaunchers<Rung, kWidths, kPath, kMinPieceKTiles>) : void()),
         ...);
        return chosen;
    }

    // The rung's launchers of clustered K slices at `width`, one of kWidths, else at kOtherwise.
    template <class Rung, OperandPath kPath, int kOtherwise>
    static RegisterOperandClusters clusters(int width) {
        RegisterOperandClusters chosen = kRegisterOperandClusters<Rung, kOtherwise, kPath>;
        ((width == kWidths ? void(chosen = kRegisterOperandClusters<Rung, kWidths, kPath>) : void()), ...);
        return chosen;
    }
};

// The widths of tiles fitted to a small side of C, which one tile spans at any width: a narrower one does fewer
// padded MMAs and keeps more of the large operand in flight.
using SmallSideWidths = TileWidths<8, 16, 24, 32>;

// The least depth of a K slice of a small side's tiles of `width` columns: 16 x width, so that the slices' workspace
// (rows x width written and read) is at most an eighth of the operand they stream (rows x K), and at least 256.
inline int small_side_min_slice_k(int width) { return width * 16 > 256 ? width * 16 : 256; }

}  // namespace gemm
