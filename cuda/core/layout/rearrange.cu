// The gather goes through a square shared-memory tile, so that both sides of a transposition are coalesced: the
// tile is read along whichever source dimension has unit stride (column-wise when row_stride is 1) and written to
// dst row by row. Tile rows are padded by one float against bank conflicts. Contiguous rows need no tile.
//
// Both kinds of pass are short beside the products they serve, and on a small operand their time is the latency of
// a few round trips to memory rather than bytes; so the launch gives them enough blocks to keep every SM busy: the
// gather's tiles shrink from 64 to 32 where 64-wide ones would leave SMs idle, and the copy of contiguous rows shares
// out all of the matrix's 16-byte groups, not whole rows, to every thread of a grid sized to the work.
#include "core/layout/rearrange.h"

#include <algorithm>

#include "core/device.h"
#include "core/launch.h"
#include "core/mma/tf32_mma_sync.cuh"

namespace gemm {

namespace {

// kTile x 4 threads per block, kTile / 4 passes per tile: with 64-wide tiles each thread has 16 loads in flight, which
// a transposition over HBM needs to come near copy bandwidth; 32-wide tiles, four times as many, serve an operand
// whose 64-wide tiles number fewer than kSmallGatherTilesPerSm per SM.
constexpr int kRowsPerPass = 4, kWideTile = 64, kNarrowTile = 32, kSmallGatherTilesPerSm = 2;

// What a gather writes of each value: the value, its TF32 rounding, or its TF32 split (big to dst, small to dst2).
enum class Values { kExact, kTf32, kTf32Split };

// Blocks walk the tiles (row-major over column tiles) with a grid stride, so any shape fits the grid.
template <Values kValues, int kTile>
__global__ void __launch_bounds__(kTile * kRowsPerPass)
    gather_kernel(const float* __restrict__ src, int64_t rows, int64_t cols, int64_t row_stride, int64_t column_stride,
                  bool read_by_column, float* __restrict__ dst, float* __restrict__ dst2, int* __restrict__ row_flags,
                  int64_t ld_dst) {
    __shared__ float tile[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t column_tiles = (cols + kTile - 1) / kTile, tiles = (rows + kTile - 1) / kTile * column_tiles;
    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int64_t r0 = t / column_tiles * kTile, c0 = t % column_tiles * kTile;
#pragma unroll
        for (int i = ty; i < kTile; i += kRowsPerPass) {
            // read_by_column: lanes walk r (unit stride in src); otherwise they walk c.
            const int a = read_by_column ? tx : i, b = read_by_column ? i : tx;  // tile row and column
            const int64_t r = r0 + a, c = c0 + b;
            if (r < rows && c < cols) tile[a][b] = src[r * row_stride + c * column_stride];
        }
        __syncthreads();
#pragma unroll
        for (int i = ty; i < kTile; i += kRowsPerPass) {
            const int64_t r = r0 + i, c = c0 + tx;
            if (r >= rows || c >= cols) continue;
            const float x = tile[i][tx];
            if constexpr (kValues == Values::kTf32Split) {
                const Tf32Split parts = split_tf32(x);
                dst[r * ld_dst + c] = __uint_as_float(parts.big);
                dst2[r * ld_dst + c] = __uint_as_float(parts.small);
                if (!isfinite(__uint_as_float(parts.big))) row_flags[r] = 1;  // x Inf or NaN, or big overflowed
            } else {
                dst[r * ld_dst + c] = kValues == Values::kTf32 ? __uint_as_float(to_tf32(x)) : x;
            }
        }
        __syncthreads();  // the tile is free for the next one
    }
}

// A gather of rows stored contiguously (column_stride 1, rows of src and dst 16-byte aligned): nothing to transpose,
// so each thread takes four values at a time straight from src and writes what kValues says of them to dst (and
// dst2). The matrix's groups of four (row-major, a ragged one at the end of each row) are shared out with a grid
// stride, kGroupsInFlight per thread at a time, all loaded before any is written.
constexpr int kRowThreads = 256, kGroupsInFlight = 4;

template <Values kValues>
__global__ void __launch_bounds__(kRowThreads)
    rows_kernel(const float* __restrict__ src, int64_t rows, int64_t cols, int64_t ld_src, float* __restrict__ dst,
                float* __restrict__ dst2, int* __restrict__ row_flags, int64_t ld_dst) {
    const int64_t per_row = (cols + 3) / 4, groups = rows * per_row;
    const int64_t stride = int64_t(gridDim.x) * kRowThreads;
    for (int64_t first = int64_t(blockIdx.x) * kRowThreads + threadIdx.x; first < groups;
         first += kGroupsInFlight * stride) {
        float x[kGroupsInFlight][4];
#pragma unroll
        for (int u = 0; u < kGroupsInFlight; ++u) {
            const int64_t g = first + u * stride, r = g / per_row, c = 4 * (g - r * per_row);
            if (g >= groups) continue;
            if (c + 4 <= cols) {
                const float4 v = *reinterpret_cast<const float4*>(src + r * ld_src + c);
                x[u][0] = v.x, x[u][1] = v.y, x[u][2] = v.z, x[u][3] = v.w;
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) x[u][i] = c + i < cols ? src[r * ld_src + c + i] : 0.0f;
            }
        }
#pragma unroll
        for (int u = 0; u < kGroupsInFlight; ++u) {
            const int64_t g = first + u * stride, r = g / per_row, c = 4 * (g - r * per_row);
            if (g >= groups) continue;
            uint32_t first_part[4], second_part[4];
            bool nonfinite = false;
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                if constexpr (kValues == Values::kTf32Split) {
                    const Tf32Split parts = split_tf32(x[u][i]);
                    first_part[i] = parts.big, second_part[i] = parts.small;
                    nonfinite |= c + i < cols && !isfinite(__uint_as_float(parts.big));
                } else {
                    first_part[i] = kValues == Values::kTf32 ? to_tf32(x[u][i]) : __float_as_uint(x[u][i]);
                }
            }
            if (c + 4 <= cols) {
                *reinterpret_cast<uint4*>(dst + r * ld_dst + c) =
                    make_uint4(first_part[0], first_part[1], first_part[2], first_part[3]);
                if constexpr (kValues == Values::kTf32Split)
                    *reinterpret_cast<uint4*>(dst2 + r * ld_dst + c) =
                        make_uint4(second_part[0], second_part[1], second_part[2], second_part[3]);
            } else {
                for (int i = 0; c + i < cols; ++i) {
                    dst[r * ld_dst + c + i] = __uint_as_float(first_part[i]);
                    if constexpr (kValues == Values::kTf32Split)
                        dst2[r * ld_dst + c + i] = __uint_as_float(second_part[i]);
                }
            }
            if constexpr (kValues == Values::kTf32Split)
                if (nonfinite) row_flags[r] = 1;  // every writer writes the same value
        }
    }
}

constexpr int kScaleThreads = 256;

__global__ void __launch_bounds__(kScaleThreads)
    scale_add_kernel(const float* __restrict__ P, int64_t ldp, float alpha, float beta, float* __restrict__ C,
                     int64_t ldc, int64_t rows, int64_t cols) {
    const int64_t total = rows * cols, stride = int64_t(gridDim.x) * kScaleThreads;
    for (int64_t i = int64_t(blockIdx.x) * kScaleThreads + threadIdx.x; i < total; i += stride) {
        const int64_t r = i / cols, c = i - r * cols;
        const float product = P != nullptr ? alpha * P[r * ldp + c] : 0.0f;
        C[r * ldc + c] = beta == 0.0f ? product : product + beta * C[r * ldc + c];
    }
}

// The tiles of kTile x kTile that cover rows x cols.
template <int kTile>
int64_t tiles_of_gather(int64_t rows, int64_t cols) {
    return (rows + kTile - 1) / kTile * ((cols + kTile - 1) / kTile);
}

// Blocks of kRowThreads for the copy of contiguous rows: one group of four per thread, up to kRowBlocksPerSm blocks
// per SM, past which each thread takes more.
constexpr int64_t kRowBlocksPerSm = 8;

template <Values kValues>
mm_status launch_gather_of(const float* src, int64_t rows, int64_t cols, int64_t row_stride, int64_t column_stride,
                           float* dst, float* dst2, int* row_flags, int64_t ld_dst, cudaStream_t stream) {
    if (rows == 0 || cols == 0) return MM_OK;
    int sms = 0;
    MM_TRY(sm_count(&sms));
    if (column_stride == 1 && rows_aligned16(src, row_stride) && rows_aligned16(dst, ld_dst) &&
        (dst2 == nullptr || rows_aligned16(dst2, ld_dst))) {
        const int64_t groups = rows * ((cols + 3) / 4);
        const int64_t blocks = std::min((groups - 1) / kRowThreads + 1, kRowBlocksPerSm * sms);
        return gemm::launch(rows_kernel<kValues>, unsigned(blocks), kRowThreads, 0, stream, "rearranging an operand",
                            src, rows, cols, row_stride, dst, dst2, row_flags, ld_dst);
    }
    const bool read_by_column = row_stride == 1 && column_stride != 1;
    const auto launch_tiles = [&](auto kernel, int tile, int64_t tiles) {
        return gemm::launch(kernel, unsigned(std::min<int64_t>(tiles, 65535)), dim3(tile, kRowsPerPass), 0, stream,
                            "rearranging an operand", src, rows, cols, row_stride, column_stride, read_by_column, dst,
                            dst2, row_flags, ld_dst);
    };
    const int64_t wide_tiles = tiles_of_gather<kWideTile>(rows, cols);
    if (wide_tiles >= kSmallGatherTilesPerSm * int64_t(sms))
        return launch_tiles(gather_kernel<kValues, kWideTile>, kWideTile, wide_tiles);
    return launch_tiles(gather_kernel<kValues, kNarrowTile>, kNarrowTile, tiles_of_gather<kNarrowTile>(rows, cols));
}

}  // namespace

mm_status launch_gather(const float* src, int64_t rows, int64_t cols, int64_t row_stride, int64_t column_stride,
                        float* dst, int64_t ld_dst, cudaStream_t stream, bool round_to_tf32) {
    return round_to_tf32 ? launch_gather_of<Values::kTf32>(src, rows, cols, row_stride, column_stride, dst, nullptr,
                                                           nullptr, ld_dst, stream)
                         : launch_gather_of<Values::kExact>(src, rows, cols, row_stride, column_stride, dst, nullptr,
                                                            nullptr, ld_dst, stream);
}

mm_status launch_tf32_split_gather(const float* src, int64_t rows, int64_t cols, int64_t row_stride,
                                   int64_t column_stride, float* big, float* small, int* row_flags, int64_t ld_dst,
                                   cudaStream_t stream) {
    return launch_gather_of<Values::kTf32Split>(src, rows, cols, row_stride, column_stride, big, small, row_flags,
                                                ld_dst, stream);
}

mm_status gathered_copy(const float* src, int64_t rows, int64_t cols, int64_t row_stride, int64_t column_stride,
                        bool round_to_tf32, DeviceBuffer& workspace, const char* what, const float** out,
                        int64_t* ld_out, cudaStream_t stream) {
    const int64_t ld_copy = padded_ld(cols);
    MM_TRY(workspace.allocate(sizeof(float) * size_t(rows) * size_t(ld_copy), what));
    MM_TRY(launch_gather(src, rows, cols, row_stride, column_stride, workspace.data(), ld_copy, stream, round_to_tf32));
    *out = workspace.data();
    *ld_out = ld_copy;
    return MM_OK;
}

mm_status transposed_copy(const float* X, int64_t ld, int64_t rows, int64_t cols, DeviceBuffer& workspace,
                          const char* what, const float** out, int64_t* ld_out, cudaStream_t stream) {
    return gathered_copy(X, rows, cols, 1, ld, false, workspace, what, out, ld_out, stream);
}

mm_status with_b_in_rows(const GemmArgs& g, DeviceBuffer& rows, GemmArgs* n, cudaStream_t stream) {
    *n = g;
    n->op_b = MM_OP_N;
    return transposed_copy(g.B, g.ldb, g.K, g.N, rows, "the workspace of op(B)", &n->B, &n->ldb, stream);
}

mm_status launch_scale_add(const float* P, int64_t ldp, float alpha, float beta, float* C, int64_t ldc, int64_t rows,
                           int64_t cols, cudaStream_t stream) {
    if (rows == 0 || cols == 0) return MM_OK;
    const int64_t blocks = std::min<int64_t>((rows * cols + kScaleThreads - 1) / kScaleThreads, 4096);
    return gemm::launch(scale_add_kernel, unsigned(blocks), kScaleThreads, 0, stream, "applying alpha and beta", P,
                        ldp, alpha, beta, C, ldc, rows, cols);
}

}  // namespace gemm
