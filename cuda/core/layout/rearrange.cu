// The gather goes through a square shared-memory tile, so that both sides of a transposition are coalesced: the
// tile is read along whichever source dimension has unit stride (column-wise when row_stride is 1) and written to
// dst row by row. Tile rows are padded by one float against bank conflicts. Contiguous rows need no tile.
//
// On a small operand 64-wide tiles, one per block, are fewer than the SMs: there the tiles are 32 wide, four times
// as many blocks.
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
// dst2). Blocks take rows with a grid stride.
constexpr int kRowThreads = 256;

template <Values kValues>
__global__ void __launch_bounds__(kRowThreads)
    rows_kernel(const float* __restrict__ src, int64_t rows, int64_t cols, int64_t ld_src, float* __restrict__ dst,
                float* __restrict__ dst2, int* __restrict__ row_flags, int64_t ld_dst) {
    const int64_t groups = (cols + 3) / 4;
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        bool nonfinite = false;
        for (int64_t q = threadIdx.x; q < groups; q += kRowThreads) {
            const int64_t c = 4 * q;
            const bool whole = c + 4 <= cols;
            float x[4];
            if (whole) {
                const float4 v = *reinterpret_cast<const float4*>(src + r * ld_src + c);
                x[0] = v.x, x[1] = v.y, x[2] = v.z, x[3] = v.w;
            } else {
#pragma unroll
                for (int i = 0; i < 4; ++i) x[i] = c + i < cols ? src[r * ld_src + c + i] : 0.0f;
            }
            uint32_t first[4], second[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                if constexpr (kValues == Values::kTf32Split) {
                    const Tf32Split parts = split_tf32(x[i]);
                    first[i] = parts.big, second[i] = parts.small;
                    nonfinite |= !isfinite(__uint_as_float(parts.big));
                } else {
                    first[i] = kValues == Values::kTf32 ? to_tf32(x[i]) : __float_as_uint(x[i]);
                }
            }
            if (whole) {
                *reinterpret_cast<uint4*>(dst + r * ld_dst + c) = make_uint4(first[0], first[1], first[2], first[3]);
                if constexpr (kValues == Values::kTf32Split)
                    *reinterpret_cast<uint4*>(dst2 + r * ld_dst + c) =
                        make_uint4(second[0], second[1], second[2], second[3]);
            } else {
                for (int i = 0; c + i < cols; ++i) {
                    dst[r * ld_dst + c + i] = __uint_as_float(first[i]);
                    if constexpr (kValues == Values::kTf32Split) dst2[r * ld_dst + c + i] = __uint_as_float(second[i]);
                }
            }
        }
        if constexpr (kValues == Values::kTf32Split)
            if (nonfinite) row_flags[r] = 1;
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

template <Values kValues>
mm_status launch_gather_of(const float* src, int64_t rows, int64_t cols, int64_t row_stride, int64_t column_stride,
                           float* dst, float* dst2, int* row_flags, int64_t ld_dst, cudaStream_t stream) {
    if (rows == 0 || cols == 0) return MM_OK;
    if (column_stride == 1 && rows_aligned16(src, row_stride) && rows_aligned16(dst, ld_dst) &&
        (dst2 == nullptr || rows_aligned16(dst2, ld_dst))) {
        return gemm::launch(rows_kernel<kValues>, unsigned(std::min<int64_t>(rows, 65535)), kRowThreads, 0, stream,
                            "rearranging an operand", src, rows, cols, row_stride, dst, dst2, row_flags, ld_dst);
    }
    const bool read_by_column = row_stride == 1 && column_stride != 1;
    int sms = 0;
    MM_TRY(sm_count(&sms));
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
