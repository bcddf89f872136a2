// The cluster epilogue (device): the blocks of a thread block cluster along z hold the K slices of one output tile.
// Each puts its accumulators into its own shared memory as the block tile; then each adds up a share of the tile's
// rows over every block of the cluster, reading the others' shared memory (distributed shared memory), and stores
// it to C. The slices are added as split-K's slice-order reduction adds them (epilogue/split_k_reduce.h: in runs
// of consecutive slices, each summed in order from zero, the runs' sums then added in order): the same bits, with
// no workspace and no second kernel.
#pragma once

#include <cstdint>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "core/epilogue/direct_store.cuh"

namespace gemm {

// Where a cluster writes its tile's sum: C (leading dimension ldc), and the runs the slices are added in
// (slice_order_runs).
struct ClusterOutput {
    float* c;
    int64_t ldc;
    int runs;
};

// The sum of a tile that every block of `cluster` holds in its shared memory at `tile` (kRows x kColumns, rows kLd
// floats apart): this block adds up its share of the tile's quads over the cluster's blocks, in `runs` runs of
// consecutive ranks (split-K's slice order: each run summed in order from zero, the runs' sums added in run order),
// and writes them to c (the tile's (0,0) in C, leading dimension ldc), rows_left x columns_left of C from there.
// The block's threads from kFirstThread on take part: kThreads of them, or every one (kThreads 0).
template <int kRows, int kColumns, int kLd, bool kAligned, int kFirstThread = 0, int kThreads = 0>
__device__ void add_cluster_tile(const cooperative_groups::cluster_group& cluster, float* tile, float* c, int64_t ldc,
                                 int rows_left, int columns_left, int runs) {
    constexpr int kQuadsPerRow = kColumns / 4, kQuads = kRows * kQuadsPerRow;
    const int ranks = int(cluster.num_blocks()), rank = int(cluster.block_rank());  // rank = slice along z
    const int run = (ranks - 1) / runs + 1;
    const int end = (rank + 1) * kQuads / ranks;
    for (int q = rank * kQuads / ranks + int(threadIdx.x) - kFirstThread; q < end;
         q += kThreads ? kThreads : int(blockDim.x)) {
        const int row = q / kQuadsPerRow, col = q % kQuadsPerRow * 4;
        if (row >= rows_left || col >= columns_left) continue;
        const int at = row * kLd + col;
        float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int g = 0; g < runs; ++g) {
            float4 part = make_float4(0.f, 0.f, 0.f, 0.f);
            for (int r = g * run; r < ranks && r < (g + 1) * run; ++r)
                add4(part, *reinterpret_cast<const float4*>(cluster.map_shared_rank(tile, r) + at));
            if (g == 0)
                s = part;
            else
                add4(s, part);
        }
        store4<kAligned>(c + int64_t(row) * ldc + col, columns_left - col, s);
    }
}

template <int BM, int BN>
struct ClusterSum {
    // The tile's rows are padded by 4 floats, so that the 8 rows a warp's lanes write at once fall on different banks.
    static constexpr int kLd = BN + 4;
    static constexpr int kSmemBytes = BM * kLd * int(sizeof(float));

    // Every thread of every block of the cluster calls it, after the mainloop, with the block's dynamic shared memory
    // (at least kSmemBytes, no copy into it still in flight). The arguments are those of store_direct, and the runs
    // of slices (ClusterOutput::runs).
    template <class Warp, bool kAligned>
    __device__ static void store(const typename Warp::Acc& acc, float* smem, int row0, int col0, float* c, int64_t ldc,
                                 int m_rem, int n_rem, int runs) {
#if __CUDA_ARCH__ >= 900
        namespace cg = cooperative_groups;
        const cg::cluster_group cluster = cg::this_cluster();
        __syncthreads();  // every warp's last reads of the ring are done before the tile overwrites it
#pragma unroll
        for (int f = 0; f < Warp::FM; ++f)
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int g = 0; g < Warp::FN; ++g) {
                    const int row = row0 + Warp::row_offset(4 * f + i), col = col0 + Warp::col_offset(4 * g);
                    *reinterpret_cast<float4*>(smem + row * kLd + col) =
                        make_float4(acc[4 * f + i][4 * g + 0], acc[4 * f + i][4 * g + 1], acc[4 * f + i][4 * g + 2],
                                    acc[4 * f + i][4 * g + 3]);
                }
        cluster.sync();
        add_cluster_tile<BM, BN, kLd, kAligned>(cluster, smem, c, ldc, m_rem, n_rem, runs);
        cluster.sync();  // no block leaves while another still reads its tile
#endif
    }
};

}  // namespace gemm
