#include "core/layout/scaling_check.h"

#include "core/launch.h"
#include "core/layout/rounded_up.cuh"

namespace gemm {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int64_t kMostCheckBlocks = 512;  // of the k sums' combination, whose tiles the blocks share out
constexpr int64_t kCheckBlockLines = 16;   // of each operand, at most, whose sums of squares one block adds up (two
                                           // per warp), where the tiles of k and kMostCheckBlocks leave that few
constexpr int kCheckRunK = 32;              // k of one warp's run in a tile of that combination: a lane each
static_assert(kCheckRunK == 32, "a run's k are a warp's lanes");
constexpr int kCheckSums = 7;               // per block: A's and B's k totals, their products, each operand's sum
                                            // over its lines of 2^(2e), and each operand's largest ||x||^2 / 2^(2e)

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

// The largest of every thread's `value` over the block.
__device__ unsigned long long block_max(unsigned long long value) {
    __shared__ unsigned long long warp_max[kWarps];
    for (int offset = 16; offset > 0; offset /= 2) value = max(value, __shfl_xor_sync(0xffffffffu, value, offset));
    if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = value;
    __syncthreads();
    unsigned long long result = 0;
    for (int w = 0; w < kWarps; ++w) result = max(result, warp_max[w]);
    __syncthreads();  // every thread reads warp_max before a second call writes it
    return result;
}

// This block's share of an operand's lines (a fixed cut by block index): the sum over those with a nonzero maximum
// of 2^(2e), e the line's exponent, and the largest of their ||x||^2 / 2^(2e), from the survey's pieces of each line's
// sum of squares (a warp per line, its lanes over the pieces; every addition and the scaling rounded up, so the
// figure bounds the line's from above). A line rounded to `bits` bits has u^2 = 2^(2e) 2^(-2 (bits + 1)), so one sum
// serves every count of moduli. The largest is a non-negative double, given as its bits, which order as its values.
struct LineShare {
    double exponent_squares;
    unsigned long long largest_norm_bits;
};

__device__ LineShare line_share(const LineStatistics& op) {
    const int64_t share = (op.lines - 1) / gridDim.x + 1, first = blockIdx.x * share;
    const int64_t end = min(op.lines, first + share);
    double sum = 0.0;
    for (int64_t i = first + threadIdx.x; i < end; i += kThreads)
        if (op.max_bits[i] != 0) sum += power_of_two(2 * line_exponent(op.max_bits[i]));
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned long long top = 0;
    for (int64_t i = first + warp; i < end; i += kWarps) {
        double squares = 0.0;
        for (int64_t p = lane; p < op.line_squares.pieces; p += 32)
            squares = __dadd_ru(squares, op.line_squares.partial[p * op.lines + i]);
        squares = __dmul_ru(warp_sum_up(squares), power_of_two(-2 * line_exponent(op.max_bits[i])));
        top = max(top, (unsigned long long)__double_as_longlong(squares));
    }
    return {block_sum(sum), block_max(top)};
}

// How the k sums' combination lays warps over a tile: `along_groups` warps split each k's groups (every
// along_groups-th group each, in order), the block's other warps take further runs of kCheckRunK k, so that few
// groups still keep every warp busy.
struct CheckTiles {
    int along_groups;  // 1, 2, 4 or 8
    int64_t tile_k;    // kCheckRunK * kWarps / along_groups
    int64_t tiles;
    int blocks;
};

CheckTiles check_tiles(int64_t most_groups, int64_t k, int64_t most_lines) {
    int along_groups = 1;
    while (along_groups < kWarps && along_groups < most_groups) along_groups *= 2;
    const int64_t tile_k = kCheckRunK * (kWarps / along_groups), tiles = (k - 1) / tile_k + 1;
    const int64_t blocks = max(tiles, (most_lines - 1) / kCheckBlockLines + 1);
    return {along_groups, tile_k, tiles, int(min(blocks, kMostCheckBlocks))};
}

// The k sums of both operands combined: over the tiles of k that this block takes (every gridDim.x-th), the sums of
// ||op(A)(:, k)||^2, ||op(B)(k, :)||^2 and their product, and this block's share of each operand's lines (line_share),
// into block_sums[kCheckSums * block ..]. Every sum has a fixed order for the shape (the same bits on every run).
__global__ void __launch_bounds__(kThreads) k_products_kernel(LineStatistics a, LineStatistics b, int64_t k,
                                                              CheckTiles t, double* block_sums) {
    const KSquares &a_squares = a.squares, &b_squares = b.squares;
    __shared__ double warp_a[kWarps][kCheckRunK], warp_b[kWarps][kCheckRunK];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int first_group = warp % t.along_groups, run = warp / t.along_groups;
    double a_total = 0.0, b_total = 0.0, scale = 0.0;
    for (int64_t tile = blockIdx.x; tile < t.tiles; tile += gridDim.x) {
        const int64_t kk = tile * t.tile_k + run * kCheckRunK + lane;
        double a = 0.0, b = 0.0;
        if (kk < k) {  // unrolled so that a run of loads is in flight at once; the sums keep their order
#pragma unroll 8
            for (int64_t g = first_group; g < a_squares.groups; g += t.along_groups) a += a_squares.partial[g * k + kk];
#pragma unroll 8
            for (int64_t g = first_group; g < b_squares.groups; g += t.along_groups) b += b_squares.partial[g * k + kk];
        }
        warp_a[warp][lane] = a, warp_b[warp][lane] = b;
        __syncthreads();
        if (first_group == 0) {
            double ak = 0.0, bk = 0.0;
            for (int w = warp; w < warp + t.along_groups; ++w) ak += warp_a[w][lane], bk += warp_b[w][lane];
            a_total += ak, b_total += bk, scale += ak * bk;
        }
        __syncthreads();
    }
    a_total = block_sum(a_total), b_total = block_sum(b_total), scale = block_sum(scale);
    const LineShare a_share = line_share(a), b_share = line_share(b);
    if (threadIdx.x == 0) {
        double* const out = block_sums + kCheckSums * int64_t(blockIdx.x);
        out[0] = a_total, out[1] = b_total, out[2] = scale;
        out[3] = a_share.exponent_squares, out[4] = b_share.exponent_squares;
        out[5] = __longlong_as_double((long long)a_share.largest_norm_bits);
        out[6] = __longlong_as_double((long long)b_share.largest_norm_bits);
    }
}

// alpha + beta: the largest sum up to 62 for which (2^alpha rho_a + s)(2^beta rho_b + s) < M / 2, where rho is an
// operand's largest ||x|| / 2^e and s bounds the norm of a line's rounding errors; every operation rounds up, and
// M / 2 is taken a little low.
__device__ int largest_bits(double rho_a, double rho_b, double slack, double product) {
    const double half = product * 0.5 * (1.0 - 0x1p-40);
    int total = 62;
    for (; total > 0; --total) {
        const int alpha = (total + 1) / 2, beta = total / 2;
        const double a = __dadd_ru(__dmul_ru(power_of_two(alpha), rho_a), slack);
        const double b = __dadd_ru(__dmul_ru(power_of_two(beta), rho_b), slack);
        if (__dmul_ru(a, b) < half) break;
    }
    return total;
}

// One block, from the k_products_kernel blocks' sums: the scaling's bits for each count of moduli, with s =
// sqrt(k) / 2, then rho for each count and the verdict. alpha (A's bits) is the larger half of alpha + beta.
__global__ void __launch_bounds__(kThreads) scaling_check_kernel(const double* block_sums, int blocks, int64_t k,
                                                                 double product_all, double product_fewest,
                                                                 int chain_order, int* bits, int* moduli) {
    constexpr int kSums = 5, kLargest = kCheckSums - kSums;
    double sums[kSums];
    for (int s = 0; s < kSums; ++s) {
        double sum = 0.0;
        for (int block = threadIdx.x; block < blocks; block += kThreads) sum += block_sums[kCheckSums * block + s];
        sums[s] = block_sum(sum);
    }
    unsigned long long largest[kLargest];  // each operand's largest ||x||^2 / 2^(2e), as bits
    for (int s = 0; s < kLargest; ++s) {
        unsigned long long top = 0;
        for (int block = threadIdx.x; block < blocks; block += kThreads)
            top = max(top, (unsigned long long)__double_as_longlong(block_sums[kCheckSums * block + kSums + s]));
        largest[s] = block_max(top);
    }
    if (threadIdx.x != 0) return;
    const double rho_a = __dsqrt_ru(__longlong_as_double((long long)largest[0]));
    const double rho_b = __dsqrt_ru(__longlong_as_double((long long)largest[1]));
    const double slack = __dmul_ru(0.5, __dsqrt_ru(double(k)));
    const int bits_fewest = largest_bits(rho_a, rho_b, slack, product_fewest);
    const int bits_all = largest_bits(rho_a, rho_b, slack, product_all);
    bits[scaling_bits_index(kOzakiFewestModuli)] = bits_fewest;
    bits[scaling_bits_index(kOzakiModuli)] = bits_all;
    double rho[2];
    for (int c = 0; c < 2; ++c) {
        const int both = c == 0 ? bits_fewest : bits_all;
        const double u2 = sums[3] * power_of_two(-2 * ((both + 1) / 2 + 1));
        const double v2 = sums[4] * power_of_two(-2 * (both / 2 + 1));
        rho[c] = ozaki_error_estimate(u2, v2, sums[0], sums[1], sums[2]);
    }
    moduli[0] = ozaki_moduli_count(rho[0], rho[1], double(k), chain_order != 0);
}

}  // namespace

int64_t scaling_check_doubles() { return kCheckSums * kMostCheckBlocks; }

mm_status launch_scaling_check(const LineStatistics& a, const LineStatistics& b, int64_t k, bool chain_order,
                               double* block_sums, int* bits, int* moduli, cudaStream_t stream) {
    const CheckTiles t = check_tiles(max(a.squares.groups, b.squares.groups), k, max(a.lines, b.lines));
    MM_TRY(launch(k_products_kernel, dim3(unsigned(t.blocks)), dim3(kThreads), 0, stream, "the scaling check's sums",
                  a, b, k, t, block_sums));
    return launch(scaling_check_kernel, dim3(1), dim3(kThreads), 0, stream, "the scaling check", block_sums, t.blocks,
                  k, ozaki_moduli(kOzakiModuli).product, ozaki_moduli(kOzakiFewestModuli).product, int(chain_order),
                  bits, moduli);
}

}  // namespace gemm
