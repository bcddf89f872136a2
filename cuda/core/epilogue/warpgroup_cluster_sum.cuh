// The cluster epilogue of the warp-specialised kernels (device, sm_90a): the blocks of a thread block cluster along
// z hold the K slices of one output tile, one unit per block (schedule ClusterSliceTiles). Once both consumer
// warpgroups' MMAs have retired, each puts its 64 x kN accumulators into the block's ring, laid out as C's tile
// (transposed where the kernel computes C's transpose); the ring is free by then, since the block's one unit has
// had every K tile land and no copy is left to fill it. Then each block adds up a share of the tile's rows over
// every block of the cluster, reading their shared memory (distributed shared memory), and writes it to C, as the
// FFMA tiles' cluster epilogue does (epilogue/cluster_sum.cuh's add_cluster_tile). The slices are added in order
// from zero, as split-K's slice-order reduction adds them in one run (slice_order_runs of 1): the same bits, with no
// workspace and no second kernel.
//
// Every thread of every block takes part in the cluster's two barriers (the tiles written; every read of them done,
// so that no block leaves while another reads its shared memory): the consumers through store, the producer
// warpgroup through finish_producer, which the warp-specialised frame calls once its copies are issued.
#pragma once

#include <cstdint>

#include <cooperative_groups.h>

#include "core/copy/bulk_tensor.cuh"
#include "core/epilogue/cluster_sum.cuh"
#include "core/problem.h"
#include "core/schedule/persistent_tiles.cuh"

namespace gemm {

// kTileRows x kN tiles of the kernel's product (two consumer warpgroups of 64 rows); kTransposed: C holds the
// product's transpose. kRingBytes: the bytes of the ring that the tile reuses.
template <int kTileRows, int kN, bool kTransposed, int kRingBytes>
struct WarpgroupClusterSum {
    // C's tile in shared memory: kRows x kColumns in C's orientation, rows padded by 4 floats so that a warp's
    // transposed writes (8 rows by 4 column pairs) fall on different banks.
    static constexpr int kRows = kTransposed ? kN : kTileRows, kColumns = kTransposed ? kTileRows : kN;
    static constexpr int kLd = kColumns + 4;
    static_assert(kRows * kLd * int(sizeof(float)) <= kRingBytes, "C's tile fits the ring it reuses");
    static constexpr int kProducerThreads = 128, kConsumerThreads = 2 * 128;  // the block's warpgroups, in order
    static_assert(kTileRows == 64 * 2, "two consumer warpgroups of 64 rows");

    // A consumer thread (consumer warpgroup c): its accumulators (core/mma/wgmma_tf32.cuh's D layout) into the tile
    // at `ring`, then its block's share of the cluster's sum into C (c_rows x c_columns, leading dimension ldc), for
    // unit w of the kernel's product.
    __device__ static void store(const float (&acc)[kN / 2], float* ring, const TileUnit& w, int c, float* C,
                                 int64_t ldc, int c_rows, int c_columns) {
#if __CUDA_ARCH__ >= 900
        namespace cg = cooperative_groups;
        const cg::cluster_group cluster = cg::this_cluster();
        // Both consumer warpgroups' MMAs have retired (each waited for its own), so nothing reads the ring any more.
        asm volatile("bar.sync 1, %0;" ::"n"(kConsumerThreads) : "memory");
        fence_proxy_async_shared();  // the MMAs' and copies' accesses to the ring before these writes
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
        const int row = 64 * c + 16 * warp + lane / 4, col = 2 * (lane % 4);
#pragma unroll
        for (int j = 0; j < kN / 8; ++j)
#pragma unroll
            for (int half = 0; half < 2; ++half)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const int r = row + 8 * half, k = col + 8 * j + e;
                    ring[kTransposed ? k * kLd + r : r * kLd + k] = acc[4 * j + 2 * half + e];
                }
        cluster.sync();
        // This block's share of the tile, summed over the cluster's blocks in slice order (one run).
        const int c_row0 = kTransposed ? w.n0 : w.m0, c_col0 = kTransposed ? w.m0 : w.n0;
        float* const c_tile = C + int64_t(c_row0) * ldc + c_col0;
        const int rows_left = c_rows - c_row0, columns_left = c_columns - c_col0;
        if (rows_aligned16(C, ldc))
            add_cluster_tile<kRows, kColumns, kLd, true, kProducerThreads, kConsumerThreads>(
                cluster, ring, c_tile, ldc, rows_left, columns_left, 1);
        else
            add_cluster_tile<kRows, kColumns, kLd, false, kProducerThreads, kConsumerThreads>(
                cluster, ring, c_tile, ldc, rows_left, columns_left, 1);
        cluster.sync();  // no block leaves while another still reads its tile
#endif
    }

    // The producer warpgroup's threads, once its copies are issued: their part in the cluster's two barriers.
    __device__ static void finish_producer() {
#if __CUDA_ARCH__ >= 900
        __syncwarp();
        cooperative_groups::this_cluster().sync();
        cooperative_groups::this_cluster().sync();
#endif
    }
};

}  // namespace gemm
