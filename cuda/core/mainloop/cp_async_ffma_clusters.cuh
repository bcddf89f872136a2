// The cp.async FFMA kernel's cluster launch (host): the K slices of each output tile run as one thread block cluster
// along z, whose epilogue (core/epilogue/cluster_sum.cuh) adds them up in shared memory and writes C, instead of
// writing a workspace that a second kernel reduces. Included only where the tiles' cluster launchers are
// instantiated (core/configs/pipelined_clusters.cu).
#pragma once

#include "core/epilogue/split_k_reduce.h"
#include "core/mainloop/cp_async_ffma.cuh"

namespace gemm::cp_async_ffma {

// The even shares (blocks per SM) whose cluster occupancy is asked once and kept.
inline constexpr int kCachedShares = 16;

// The blocks per SM of an even share of a launch of `blocks` over `sms` SMs.
constexpr int even_share(int64_t blocks, int sms) {
    const int64_t share = (blocks - 1) / sms + 1;
    constexpr int kMost = kSmemPerSm / kSmemReservedPerBlock;
    return share < 1 ? 1 : share > kMost ? kMost : int(share);
}

// The most shared memory a cluster's block of kTile needs, over the layouts of A and B and the alignments: one
// launch size and one occupancy answer serve every instantiation.
template <FfmaTile kTile>
constexpr int most_cluster_smem_bytes() {
    const int sizes[] = {
        Parts<kTile, OpN, OpN, true>::kClusterSmemBytes,  Parts<kTile, OpN, OpT, true>::kClusterSmemBytes,
        Parts<kTile, OpT, OpN, true>::kClusterSmemBytes,  Parts<kTile, OpT, OpT, true>::kClusterSmemBytes,
        Parts<kTile, OpN, OpN, false>::kClusterSmemBytes, Parts<kTile, OpN, OpT, false>::kClusterSmemBytes,
        Parts<kTile, OpT, OpN, false>::kClusterSmemBytes, Parts<kTile, OpT, OpT, false>::kClusterSmemBytes};
    int most = 0;
    for (const int bytes : sizes) most = bytes > most ? bytes : most;
    return most;
}

// The dynamic shared memory a block of the cluster launch asks for: its tile, raised so that no SM holds more than
// `share` blocks. Clusters are placed a GPC at a time, so where several blocks fit an SM a launch of fewer blocks
// than the GPU holds could fill some SMs and leave others idle, where blocks without clusters spread over every SM.
template <FfmaTile kTile>
constexpr int cluster_smem_bytes(int share) {
    constexpr int kOwn = most_cluster_smem_bytes<kTile>();
    const int even = share > 1 ? kSmemPerSm / share - kSmemReservedPerBlock : kSmemPerBlock;
    const int bytes = even < kSmemPerBlock ? even : kSmemPerBlock;
    return bytes > kOwn ? bytes : kOwn;
}

template <FfmaTile kTile>
constexpr auto kClusterKernel = &cp_async_ffma_kernel<FfmaTileType<kTile>, OpN, OpN, true, SequentialOrder, true>;

template <FfmaTile kTile>
mm_status clusters_fit(const GemmArgs& g, int splits, bool* fit) {
    // Asked of the op N·N, vector-aligned instantiation, whose block size and shared memory the others share.
    constexpr auto kernel = kClusterKernel<kTile>;
    *fit = false;
    if (machine_code_of<kernel>() < 90) return MM_OK;
    MM_TRY(allow_shared_memory<kernel>(kSmemPerBlock, "cudaFuncSetAttribute(pipelined)"));
    int sms = 0, clusters = 0;
    MM_TRY(sm_count(&sms));
    const int64_t tiles = output_tiles(g, kTile.block);
    const int share = even_share(tiles * splits, sms);
    const int smem_bytes = cluster_smem_bytes<kTile>(share);
    MM_TRY((max_active_clusters<kernel, kMaxClusterSlices, kCachedShares>(splits, share, kTile.threads(), smem_bytes,
                                                                          &clusters)));
    *fit = int64_t(clusters) >= tiles;
    return MM_OK;
}

template <FfmaTile kTile>
mm_status launch_cluster_slices(const GemmArgs& g, int splits, int ktiles_per_split, cudaStream_t stream) {
    const dim3 grid(unsigned(output_tiles(g, kTile.block)), 1, unsigned(splits));
    int sms = 0;
    MM_TRY(sm_count(&sms));
    const int smem_bytes = cluster_smem_bytes<kTile>(even_share(int64_t(grid.x) * splits, sms));
    const ClusterOutput out{g.C, g.ldc, slice_order_runs(g.M, g.N, splits, sms)};
    // As launch_slices: only the operands copied by rows and C need the vector promise.
    return with_ops(g, [&](auto op_a, auto op_b) {
        using OpA = decltype(op_a);
        using OpB = decltype(op_b);
        const bool rows_a = !OpA::kT || rows_aligned16(g.A, g.lda), rows_b = OpB::kT || rows_aligned16(g.B, g.ldb);
        return with_alignment(rows_b && rows_a && rows_aligned16(g.C, g.ldc), [&](auto aligned) {
            constexpr auto kernel = &cp_async_ffma_kernel<FfmaTileType<kTile>, OpA, OpB, decltype(aligned)::value,
                                                          SequentialOrder, true>;
            MM_TRY(allow_shared_memory<kernel>(kSmemPerBlock, "cudaFuncSetAttribute(pipelined)"));
            return launch_in_clusters(unsigned(splits), kernel, grid, kTile.threads(), smem_bytes, stream,
                                      "pipelined", g, ktiles_per_split, out);
        });
    });
}

}  // namespace gemm::cp_async_ffma
