#include "core/layout/scaling_check.h"

#include "core/launch.h"

namespace gemm {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRowTileK = kThreads;   // k of one block over lines stored as rows: a thread each
constexpr int kColumnTileK = 32;      // k of one block over lines stored as columns: kColumnKPerWarp per warp
constexpr int kColumnKPerWarp = kColumnTileK / kWarps;
constexpr int64_t kMostBlocks = 1024; // of either kernel's k tiles times groups, about
constexpr int64_t kLeastGroupLines = 64;
constexpr int64_t kProductTileK = 16 * kThreads;  // k of one block of k_products_kernel

__device__ __forceinline__ double carried_square(float v) {
    const double x = fabsf(v) < kOzakiLargeMagnitude ? double(v) : 0.0;  // Inf, NaN and the largest: the fix-up's
    return x * x;
}

// Lines stored as rows (k contiguous): a thread per k, summing its group's lines in order (a warp reads 32
// consecutive k of one line).
__global__ void __launch_bounds__(kThreads) k_squares_along_rows(OperandLines op, KSquares sums, int64_t group_lines) {
    const int64_t k = blockIdx.x * int64_t(kRowTileK) + threadIdx.x, group = blockIdx.y;
    if (k >= op.k) return;
    const int64_t first = group * group_lines, end = min(op.lines, first + group_lines);
    double sum = 0.0;
    for (int64_t line = first; line < end; ++line) sum += carried_square(op.x[line * op.ld + k]);
    sums.partial[group * op.k + k] = sum;
}

// Lines stored as columns (lines contiguous): a warp per k, its lanes along the group's lines (coalesced), their
// sums added by a fixed butterfly.
__global__ void __launch_bounds__(kThreads) k_squares_along_columns(OperandLines op, KSquares sums,
                                                                    int64_t group_lines) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t group = blockIdx.y, first = group * group_lines, end = min(op.lines, first + group_lines);
    for (int q = 0; q < kColumnKPerWarp; ++q) {
        const int64_t k = blockIdx.x * int64_t(kColumnTileK) + warp * kColumnKPerWarp + q;
        if (k >= op.k) return;
        double sum = 0.0;
        for (int64_t line = first + lane; line < end; line += 32) sum += carried_square(op.x[k * op.ld + line]);
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
        if (lane == 0) sums.partial[group * op.k + k] = sum;
    }
}

// The sum of every thread's `value` over the block, by a fixed tree (the same bits on every run).
__device__ double block_sum(double value) {
    __shared__ double partial[kThreads];
    partial[threadIdx.x] = value;
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    const double total = partial[0];
    __syncthreads();  // every thread reads the total before a second call writes partial
    return total;
}

// Sum over the lines (with a nonzero maximum) of u^2 = 2^(2 (e - line_bits - 1)).
__device__ double rounding_squares(const unsigned* max_bits, int64_t lines, int line_bits) {
    double sum = 0.0;
    for (int64_t i = threadIdx.x; i < lines; i += kThreads)
        if (max_bits[i] != 0) sum += exp2(2.0 * (line_exponent(max_bits[i]) - line_bits - 1));
    return block_sum(sum);
}

// The k sums of both operands combined, block by block: each block's sums over its kProductTileK k of
// ||op(A)(:, k)||^2, ||op(B)(k, :)||^2 and their product, into block_sums[3 * block ..].
__global__ void __launch_bounds__(kThreads) k_products_kernel(KSquares a_squares, KSquares b_squares, int64_t k,
                                                              double* block_sums) {
    double a_total = 0.0, b_total = 0.0, scale = 0.0;
    const int64_t first = blockIdx.x * int64_t(kProductTileK), end = min(k, first + kProductTileK);
    for (int64_t kk = first + threadIdx.x; kk < end; kk += kThreads) {
        double a = 0.0, b = 0.0;
        for (int64_t g = 0; g < a_squares.groups; ++g) a += a_squares.partial[g * k + kk];
        for (int64_t g = 0; g < b_squares.groups; ++g) b += b_squares.partial[g * k + kk];
        a_total += a, b_total += b, scale += a * b;
    }
    a_total = block_sum(a_total), b_total = block_sum(b_total), scale = block_sum(scale);
    if (threadIdx.x == 0) {
        double* const out = block_sums + 3 * int64_t(blockIdx.x);
        out[0] = a_total, out[1] = b_total, out[2] = scale;
    }
}

// The sums of the lines' rounding errors squared, sum_i u_i^2 and sum_j v_j^2, at alpha + beta = bits.
struct RoundingSquares {
    double u2, v2;
};

__device__ RoundingSquares rounding_squares(const unsigned* a_max_bits, int64_t a_lines, const unsigned* b_max_bits,
                                            int64_t b_lines, int bits) {
    return {rounding_squares(a_max_bits, a_lines, (bits + 1) / 2), rounding_squares(b_max_bits, b_lines, bits / 2)};
}

// One block: rho for each count of moduli from the lines' exponents and the k_products_kernel blocks' sums, and the
// verdict.
__global__ void __launch_bounds__(kThreads) scaling_check_kernel(const unsigned* a_max_bits, int64_t a_lines,
                                                                 const unsigned* b_max_bits, int64_t b_lines,
                                                                 const double* block_sums, int64_t blocks, int64_t k,
                                                                 const int* bits, int chain_order, int* moduli) {
    const RoundingSquares all = rounding_squares(a_max_bits, a_lines, b_max_bits, b_lines,
                                                 bits[scaling_bits_index(kOzakiModuli)]);
    const RoundingSquares fewest = rounding_squares(a_max_bits, a_lines, b_max_bits, b_lines,
                                                    bits[scaling_bits_index(kOzakiFewestModuli)]);
    double a_total = 0.0, b_total = 0.0, scale = 0.0;
    for (int64_t block = threadIdx.x; block < blocks; block += kThreads) {
        a_total += block_sums[3 * block], b_total += block_sums[3 * block + 1], scale += block_sums[3 * block + 2];
    }
    a_total = block_sum(a_total), b_total = block_sum(b_total), scale = block_sum(scale);
    if (threadIdx.x == 0)
        moduli[0] = ozaki_moduli_count(ozaki_error_estimate(fewest.u2, fewest.v2, a_total, b_total, scale),
                                       ozaki_error_estimate(all.u2, all.v2, a_total, b_total, scale), double(k),
                                       chain_order != 0);
}

}  // namespace

int64_t k_squares_groups(int64_t lines, int64_t k) {
    const int64_t tiles = (k - 1) / kRowTileK + 1, by_blocks = kMostBlocks / tiles;
    const int64_t by_lines = (lines - 1) / kLeastGroupLines + 1;
    const int64_t groups = by_blocks < by_lines ? by_blocks : by_lines;
    return groups > 1 ? groups : 1;
}

mm_status launch_k_squares(const OperandLines& op, const KSquares& sums, cudaStream_t stream) {
    const int64_t group_lines = (op.lines - 1) / sums.groups + 1;
    if (op.k_contiguous) {
        const dim3 grid(unsigned((op.k - 1) / kRowTileK + 1), unsigned(sums.groups));
        return launch(k_squares_along_rows, grid, dim3(kThreads), 0, stream, "the scaling check's sums", op, sums,
                      group_lines);
    }
    const dim3 grid(unsigned((op.k - 1) / kColumnTileK + 1), unsigned(sums.groups));
    return launch(k_squares_along_columns, grid, dim3(kThreads), 0, stream, "the scaling check's sums", op, sums,
                  group_lines);
}

int64_t scaling_check_doubles(int64_t k) { return 3 * ((k - 1) / kProductTileK + 1); }

mm_status launch_scaling_check(const unsigned* a_max_bits, int64_t a_lines, const KSquares& a_squares,
                               const unsigned* b_max_bits, int64_t b_lines, const KSquares& b_squares, int64_t k,
                               const int* bits, bool chain_order, double* block_sums, int* moduli,
                               cudaStream_t stream) {
    const int64_t blocks = (k - 1) / kProductTileK + 1;
    MM_TRY(launch(k_products_kernel, dim3(unsigned(blocks)), dim3(kThreads), 0, stream, "the scaling check's sums",
                  a_squares, b_squares, k, block_sums));
    return launch(scaling_check_kernel, dim3(1), dim3(kThreads), 0, stream, "the scaling check", a_max_bits, a_lines,
                  b_max_bits, b_lines, block_sums, blocks, k, bits, int(chain_order), moduli);
}

}  // namespace gemm
