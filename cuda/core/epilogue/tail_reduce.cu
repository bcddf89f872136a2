// The tail reduction: one block row of the grid per tail tile, one thread per 4 consecutive outputs of the tile,
// float4 reads of the pieces (dense, 16-byte aligned) and guarded stores into C.
#include "core/epilogue/tail_reduce.h"

#include "core/epilogue/direct_store.cuh"
#include "core/launch.h"

namespace gemm {

namespace {

constexpr int kReduceThreads = 256;

// kTransposed: the pieces are tiles of C's transpose's schedule stored as C's own bn x bm tiles.
template <bool kAlignedC, bool kTransposed>
__global__ void __launch_bounds__(kReduceThreads)
    tail_reduce_kernel(const float* __restrict__ pieces, PersistentSchedule s, int bm, int bn, float* __restrict__ C,
                       int64_t ldc) {
    const int t = blockIdx.y, quad = blockIdx.x * kReduceThreads + threadIdx.x;
    if (quad * 4 >= bm * bn) return;
    const int piece_columns = kTransposed ? bm : bn;
    const int row = quad * 4 / piece_columns, col = quad * 4 % piece_columns;
    int tile_m = 0, tile_n = 0;
    tile_coords(s.dp_tiles + t, s.tiles_m, s.tiles_n, kRasterBandRows, tile_m, tile_n);
    // The piece's (row, col) in C, and C's rows and columns.
    const int64_t c_rows = kTransposed ? s.N : s.M, c_columns = kTransposed ? s.M : s.N;
    const int64_t m = (kTransposed ? int64_t(tile_n) * bn : int64_t(tile_m) * bm) + row;
    const int64_t n = (kTransposed ? int64_t(tile_m) * bm : int64_t(tile_n) * bn) + col;
    if (m >= c_rows || n >= c_columns) return;
    const int64_t tile_floats = int64_t(bm) * bn, piece_stride = int64_t(s.tail_tiles()) * tile_floats;
    const float* p = pieces + t * tile_floats + int64_t(row) * piece_columns + col;
    float4 sum = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int i = 0; i < s.tail_splits; ++i) {
        const float4 v = *reinterpret_cast<const float4*>(p + i * piece_stride);
        sum.x += v.x;
        sum.y += v.y;
        sum.z += v.z;
        sum.w += v.w;
    }
    store4<kAlignedC>(C + m * ldc + n, int(c_columns - n), sum);
}

}  // namespace

mm_status launch_tail_reduce(const float* pieces, const PersistentSchedule& s, int bm, int bn, float* C, int64_t ldc,
                             cudaStream_t stream, bool transposed) {
    const dim3 grid(unsigned((bm * bn / 4 - 1) / kReduceThreads + 1), unsigned(s.tail_tiles()));
    return with_alignment(rows_aligned16(C, ldc), [&](auto aligned) {
        constexpr bool kAligned = decltype(aligned)::value;
        return transposed ? gemm::launch(tail_reduce_kernel<kAligned, true>, grid, kReduceThreads, 0, stream,
                                         "tail reduction", pieces, s, bm, bn, C, ldc)
                          : gemm::launch(tail_reduce_kernel<kAligned, false>, grid, kReduceThreads, 0, stream,
                                         "tail reduction", pieces, s, bm, bn, C, ldc);
    });
}

}  // namespace gemm
