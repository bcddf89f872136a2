// The cp.async FFMA kernel (device and host): the warp-tiled FFMA micro-kernel fed by a ring of shared-memory tiles
// filled with cp.async, one block per output tile and K slice, each tile's product stored directly; and its launcher
// as a configuration (gemm::ConfigDesc) for any FfmaTile. The pipelined rung (kernels/pipelined.cu) explains the
// technique; core/configs/pipelined.h names the tiles the rungs run it with. The launch whose K slices a thread block
// cluster adds up is core/mainloop/cp_async_ffma_clusters.cuh.
#pragma once

#include <type_traits>

#include "core/config.h"
#include "core/copy/cp_async_tile.cuh"
#include "core/device.h"
#include "core/epilogue/cluster_sum.cuh"
#include "core/epilogue/direct_store.cuh"
#include "core/launch.h"
#include "core/mma/ffma_sums.cuh"
#include "core/mma/ffma_warp_tile.cuh"
#include "core/pipeline/cp_async_ring.cuh"
#include "core/schedule/raster.cuh"
#include "core/schedule/split_k.h"

namespace gemm::cp_async_ffma {

// The kernel's parts, for one configuration.
template <FfmaTile kTile, class OpA, class OpB, bool kAligned>
struct Parts {
    using Warp = gemm::FfmaWarpTileOf<kTile>;
    using Copy = gemm::CpAsyncTileCopy<kTile, OpA, OpB, kAligned>;
    using Ring = gemm::CpAsyncRing<kTile.stages>;
    static constexpr int BM = kTile.block.m, BN = kTile.block.n, BK = kTile.block.k;
    static constexpr int kSmemBytes = int(sizeof(typename Copy::Storage));
    using ClusterSum = gemm::ClusterSum<BM, BN>;
    // A cluster's blocks put their tiles where the ring was.
    static constexpr int kClusterSmemBytes = kSmemBytes > ClusterSum::kSmemBytes ? kSmemBytes : ClusterSum::kSmemBytes;
    static_assert(Copy::valid() && kTile.warps_m() * Warp::kWM == BM && kTile.warps_n() * Warp::kWN == BN &&
                      kTile.threads() <= 1024,
                  "tile configuration violates the copy-map / warp-tile constraints");
    static_assert(kTile.k_body() == BK && BK % 2 == 0,
                  "one straight k body per stage, whose fragment buffers alternate across k");
    static_assert(gemm::fits_shared_memory(kSmemBytes, kTile.min_blocks_per_sm), "shared memory over the limits");
    static_assert(gemm::fits_shared_memory(kClusterSmemBytes, 1), "a cluster's tile over the shared memory limit");
};

// One block per output tile (blockIdx.x, rasterised) and K slice (blockIdx.z); each slice writes its product to
// `out` (a SliceOutput), or, with kClusterSum, the slices of a tile run as one thread block cluster along z that
// adds them up and writes the sum to C (`out` a ClusterOutput). The fragments of the warp tile are
// register double-buffered: the k+1 fragments load while the k FMAs run, and the next stage's first fragments
// load under the last k's FMAs. Order: the order of each thread's sums over K (core/mma/ffma_sums.cuh).
template <class Tile, class OpA, class OpB, bool kAligned, class Order = gemm::SequentialOrder,
          bool kClusterSum = false>
__global__ void __launch_bounds__(Tile::value.threads(), Tile::value.min_blocks_per_sm)
    cp_async_ffma_kernel(const GemmMatrices g, const int ktiles_per_split,
                         const std::conditional_t<kClusterSum, gemm::ClusterOutput, gemm::SliceOutput> out) {
    using P = Parts<Tile::value, OpA, OpB, kAligned>;
    using Warp = typename P::Warp;
    extern __shared__ __align__(16) float smem_raw[];
    auto& smem = *reinterpret_cast<typename P::Copy::Storage*>(smem_raw);
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int bm, bn;
    gemm::tile_coords(blockIdx.x, tiles_of(g.M, P::BM), tiles_of(g.N, P::BN), gemm::kRasterBandRows, bm, bn);
    const int m0 = bm * P::BM, n0 = bn * P::BN;
    const int m_rem = g.M - m0, n_rem = g.N - n0;  // > 0
    // Split-K: this block's slice of the K tiles.
    const int k_tiles = (g.K - 1) / P::BK + 1;  // K >= 1; avoids the overflow of K + BK - 1
    const int64_t slice0 = int64_t(blockIdx.z) * ktiles_per_split;
    const int kt_begin = int(min(slice0, int64_t(k_tiles)));
    const int kt_end = int(min(slice0 + ktiles_per_split, int64_t(k_tiles)));

    const typename P::Copy copy(smem, g, m0, n0, tid);
    const auto load = [&](int kt, int stage) { copy.load(kt, stage); };
    typename Order::template Sum<Warp> sum;
    typename P::Ring ring(kt_begin, kt_end);
    ring.fill(load);
    int row0, col0;
    gemm::warp_tile_origin<Warp>(warp, lane, Tile::value.warps_n(), row0, col0);

    float4 fa[2][Warp::FM], fb[2][Warp::FN];  // [register buffer][fragment]
    Warp::load(fa[0], fb[0], smem.a + row0, smem.b + col0);
    const int n_tiles = kt_end - kt_begin;
    for (int it = 0; it < n_tiles; ++it) {
        ring.refill(load);
        const float* const a_k = smem.a + ring.read_stage() * P::Copy::kAStage + row0;
        const float* const b_k = smem.b + ring.read_stage() * P::Copy::kBStage + col0;
#pragma unroll
        for (int k = 0; k < P::BK; ++k) {
            if (k + 1 < P::BK) {
                Warp::load(fa[(k + 1) & 1], fb[(k + 1) & 1], a_k + (k + 1) * P::Copy::SA, b_k + (k + 1) * P::Copy::SB);
            } else {  // every read of this stage is issued (the k = BK-1 fragments were loaded at k = BK-2)
                ring.advance();
                Warp::load(fa[(k + 1) & 1], fb[(k + 1) & 1], smem.a + ring.read_stage() * P::Copy::kAStage + row0,
                           smem.b + ring.read_stage() * P::Copy::kBStage + col0);
            }
            sum.fma(k, fa[k & 1], fb[k & 1]);
        }
        sum.end_tile();
    }
    // Past the last tile the fragment loads above read a stale stage: harmless, nothing writes it (every later
    // commit group is empty) and the values are never used.

    if constexpr (kClusterSum) {
        float* const c_tile = out.c + int64_t(m0) * out.ldc + n0;
        P::ClusterSum::template store<Warp, kAligned>(sum.result(), smem_raw, row0, col0, c_tile, out.ldc, m_rem, n_rem,
                                                      out.runs);
    } else {
        float* const c_tile = out.base + int64_t(blockIdx.z) * out.slice_stride + int64_t(m0) * out.ld + n0;
        gemm::store_direct<Warp, kAligned>(sum.result(), c_tile, out.ld, row0, col0, m_rem, n_rem);
    }
}

template <FfmaTile kTile, class OpA, class OpB, bool kAligned, class Order>
mm_status launch_slices_as(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                           cudaStream_t stream) {
    constexpr int kSmemBytes = Parts<kTile, OpA, OpB, kAligned>::kSmemBytes;
    constexpr auto kernel = &cp_async_ffma_kernel<gemm::FfmaTileType<kTile>, OpA, OpB, kAligned, Order>;
    MM_TRY(gemm::allow_shared_memory<kernel>(kSmemBytes, "cudaFuncSetAttribute(pipelined)"));
    const dim3 grid(tiles_of(g.M, kTile.block.m) * tiles_of(g.N, kTile.block.n), 1, unsigned(splits));
    return gemm::launch(kernel, grid, kTile.threads(), kSmemBytes, stream, "pipelined", g, ktiles_per_split, out);
}

template <FfmaTile kTile, class Order = gemm::SequentialOrder>
mm_status launch_slices(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out,
                        cudaStream_t stream) {
    // A transposed operand is copied element-wise, so only the operands copied by rows (B for op_b = MM_OP_N, A
    // for op_a = MM_OP_T: read) and the output (written) need the vector promise.
    return with_ops(g, [&](auto op_a, auto op_b) {
        using OpA = decltype(op_a);
        using OpB = decltype(op_b);
        const bool rows_a = !OpA::kT || rows_aligned16(g.A, g.lda), rows_b = OpB::kT || rows_aligned16(g.B, g.ldb);
        return with_alignment(rows_b && rows_a && rows_aligned16(out.base, out.ld), [&](auto aligned) {
            return launch_slices_as<kTile, OpA, OpB, decltype(aligned)::value, Order>(g, splits, ktiles_per_split, out,
                                                                                     stream);
        });
    });
}

// The cluster path of launch, for split_k.h's run_split_k_in_clusters: defined in cp_async_ffma_clusters.cuh and
// instantiated for each tile in a translation unit of its own (core/configs/pipelined_clusters.cu), because the
// machine code ptxas gives a kernel depends on the other kernels of its module.
template <FfmaTile kTile>
mm_status clusters_fit(const GemmArgs& g, int splits, bool* fit);
template <FfmaTile kTile>
mm_status launch_cluster_slices(const GemmArgs& g, int splits, int ktiles_per_split, cudaStream_t stream);

template <FfmaTile kTile>
mm_status launch(const GemmArgs& g, int splits, cudaStream_t stream) {
    return gemm::run_split_k_in_clusters(g, splits, kTile.block.k, &launch_slices<kTile>, &launch_cluster_slices<kTile>,
                                         &clusters_fit<kTile>, stream);
}

template <FfmaTile kTile>
constexpr gemm::ConfigDesc describe(const char* name) {
    return gemm::describe<kTile>(name, true, nullptr, &launch<kTile>, nullptr);
}

}  // namespace gemm::cp_async_ffma
