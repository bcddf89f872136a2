#include "core/layout/line_survey.h"

#include "core/launch.h"
#include "core/layout/rounded_up.cuh"

namespace gemm {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRowStrideK = 4;                     // k of one thread over lines stored as rows, kThreads apart
constexpr int kRowTileK = kThreads * kRowStrideK;  // k of one block over lines stored as rows
constexpr int kRowBatch = 8;                       // lines whose loads a thread issues together
constexpr int kColumnBatch = 32;                   // k whose loads a thread issues together down a column: one
                                                   // per lane once the warp's sums are transposed
constexpr int kMostColumnStretch = 256;            // k of one block over lines stored as columns, at most
constexpr int kLeastColumnStretch = kColumnBatch;  // and at least
constexpr int64_t kMostBlocks = 1024;              // of either kernel's tiles of k times groups of lines, about
constexpr int64_t kLeastGroupLines = 16;           // of lines stored as rows
constexpr int64_t kMostGroups = 64;                // of either kernel: the scaling check reads groups x k sums

// |v|'s bits where the scheme carries v, else 0 (the fix-up takes it).
__device__ __forceinline__ unsigned carried_bits(float v) {
    return uncarried(v) ? 0u : __float_as_uint(fabsf(v));
}

// v^2 in double where the scheme carries v, else 0: exact (a float's 24-bit significand squared fits a double's 53,
// and its exponent's range doubled stays within a double's), so it serves both the sums along k and the rounded-up
// bound on each line's sum of squares.
__device__ __forceinline__ double carried_square(float v) {
    const double x = uncarried(v) ? 0.0 : double(v);
    return x * x;
}

// This warp's largest magnitude of a line and whether the line holds an uncarried value, from each lane's: by
// atomicMax, which gives the same maximum in any order.
__device__ __forceinline__ void warp_line_max(unsigned top, bool flagged, int64_t line, unsigned* max_bits,
                                              int* flags) {
    top = __reduce_max_sync(0xffffffffu, top);
    flagged = __any_sync(0xffffffffu, flagged);
    if (threadIdx.x % 32 == 0) {
        if (top != 0) atomicMax(max_bits + line, top);
        if (flagged) flags[line] = 1;
    }
}

// Lines stored as rows (k contiguous): a thread per kRowStrideK k, kThreads apart, down its group's lines in order
// (a warp reads 32 consecutive k of one line per load); a warp's 128 values of a line give one atomicMax and one
// piece of the line's sum of squares (piece blockIdx.x * kWarps + warp; warps past K write zeros).
__global__ void __launch_bounds__(kThreads) survey_along_rows(OperandLines op, unsigned* max_bits, int* flags,
                                                              KSquares sums, LineSquares lines, int64_t group_lines) {
    const int64_t k0 = blockIdx.x * int64_t(kRowTileK) + threadIdx.x;
    double* const pieces = lines.partial + (blockIdx.x * int64_t(kWarps) + threadIdx.x / 32) * op.lines;
    const int64_t group = blockIdx.y, first = group * group_lines, end = min(op.lines, first + group_lines);
    double sum[kRowStrideK] = {};
    for (int64_t line0 = first; line0 < end; line0 += kRowBatch) {
        float v[kRowBatch][kRowStrideK];
#pragma unroll
        for (int b = 0; b < kRowBatch; ++b)
#pragma unroll
            for (int s = 0; s < kRowStrideK; ++s) {
                const int64_t k = k0 + s * kThreads;
                v[b][s] = line0 + b < end && k < op.k ? op.x[(line0 + b) * op.ld + k] : 0.f;
            }
#pragma unroll
        for (int b = 0; b < kRowBatch; ++b) {
            if (line0 + b >= end) break;
            unsigned top = 0;
            bool flagged = false;
            double line_sum = 0.0;
#pragma unroll
            for (int s = 0; s < kRowStrideK; ++s) {
                top = max(top, carried_bits(v[b][s]));
                flagged |= uncarried(v[b][s]);
                sum[s] += carried_square(v[b][s]);
                line_sum = __dadd_ru(line_sum, carried_square(v[b][s]));
            }
            warp_line_max(top, flagged, line0 + b, max_bits, flags);
            line_sum = warp_sum_up(line_sum);
            if (threadIdx.x % 32 == 0) pieces[line0 + b] = line_sum;
        }
    }
#pragma unroll
    for (int s = 0; s < kRowStrideK; ++s)
        if (k0 + s * kThreads < op.k) sums.partial[group * op.k + k0 + s * kThreads] = sum[s];
}

// One step of transposed_sums: the lane keeps half of its first 2 kWidth sums, adding its partner's (lane ^ kWidth)
// copies of them, and moves them to the front.
template <int kWidth>
__device__ __forceinline__ void keep_half(double (&s)[32], int lane) {
    const bool upper = (lane & kWidth) != 0;  // keeps s[kWidth .. 2 kWidth), sends s[0 .. kWidth)
#pragma unroll
    for (int i = 0; i < kWidth; ++i) {
        const double kept = upper ? s[i + kWidth] : s[i], sent = upper ? s[i] : s[i + kWidth];
        s[i] = kept + __shfl_xor_sync(0xffffffffu, sent, kWidth);
    }
}

// The sums of a warp's lanes' 32 values each: lane l gets the sum over the lanes of their s[l] (s is spent). Each
// step halves the values a lane keeps: 31 exchanges for the 32 sums, where a butterfly for each would take 160, in
// an order fixed by the lanes (the same bits every time).
__device__ __forceinline__ double transposed_sums(double (&s)[32]) {
    const int lane = threadIdx.x % 32;
    keep_half<16>(s, lane);
    keep_half<8>(s, lane);
    keep_half<4>(s, lane);
    keep_half<2>(s, lane);
    keep_half<1>(s, lane);
    return s[0];
}

// Lines stored as columns (lines contiguous): a thread per line of each chunk of kThreads lines of the group, down a
// stretch of k in batches of kColumnBatch (one atomicMax and one piece of the line's sum of squares per line and
// stretch: piece blockIdx.x). A k's sum adds its lanes' squares by transposed_sums, then (in shared memory) each warp's
// chunks in order, then the warps in order.
__global__ void __launch_bounds__(kThreads) survey_along_columns(OperandLines op, int stretch, unsigned* max_bits,
                                                                 int* flags, KSquares sums, LineSquares lines,
                                                                 int64_t group_lines) {
    __shared__ double warp_sums[kWarps][kMostColumnStretch];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t group = blockIdx.y, first = group * group_lines, end = min(op.lines, first + group_lines);
    const int64_t k0 = blockIdx.x * int64_t(stretch);
    const int span = int(min(int64_t(stretch), op.k - k0));
    for (int q = lane; q < span; q += 32) warp_sums[warp][q] = 0.0;
    __syncwarp();  // the zeros before lane 0 adds to them
    for (int64_t chunk = first; chunk + warp * 32 < end; chunk += kThreads) {
        const int64_t line = chunk + threadIdx.x;
        const bool inside = line < end;
        unsigned top = 0;
        bool flagged = false;
        double line_sum = 0.0;
        for (int q0 = 0; q0 < span; q0 += kColumnBatch) {
            float v[kColumnBatch];
#pragma unroll
            for (int b = 0; b < kColumnBatch; ++b)
                v[b] = inside && q0 + b < span ? op.x[(k0 + q0 + b) * op.ld + line] : 0.f;
            double squares[kColumnBatch];
#pragma unroll
            for (int b = 0; b < kColumnBatch; ++b) {
                top = max(top, carried_bits(v[b]));
                flagged |= uncarried(v[b]);
                squares[b] = carried_square(v[b]);
                line_sum = __dadd_ru(line_sum, squares[b]);
            }
            const double sum = transposed_sums(squares);  // the warp's, for k0 + q0 + lane
            if (q0 + lane < span) warp_sums[warp][q0 + lane] += sum;
        }
        if (inside && top != 0) atomicMax(max_bits + line, top);
        if (inside && flagged) flags[line] = 1;
        if (inside) lines.partial[blockIdx.x * op.lines + line] = line_sum;
    }
    __syncthreads();
    for (int q = threadIdx.x; q < span; q += kThreads) {
        double sum = 0.0;
        for (int w = 0; w < kWarps; ++w) sum += warp_sums[w][q];
        sums.partial[group * op.k + k0 + q] = sum;
    }
}

// The k of one block's stretch down the columns: the longest of kLeastColumnStretch to kMostColumnStretch that still
// gives kMostBlocks blocks, so that a small operand's pass keeps enough loads in flight.
int column_stretch(const OperandLines& op, int64_t groups) {
    int stretch = kMostColumnStretch;
    while (stretch > kLeastColumnStretch && ceil_div(op.k, stretch) * groups < kMostBlocks) stretch /= 2;
    return stretch;
}

}  // namespace

// Rows: groups of at least kLeastGroupLines lines, as many as keep about kMostBlocks blocks. Columns: groups of whole
// chunks of kThreads lines (a block's threads), as many as keep about kMostBlocks blocks at the longest stretch.
// Either: at most kMostGroups, whose sums the scaling check adds for each k.
int64_t k_squares_groups(const OperandLines& op) {
    const int64_t by_blocks = kMostBlocks / ceil_div(op.k, op.k_contiguous ? kRowTileK : kMostColumnStretch);
    const int64_t by_lines = ceil_div(op.lines, op.k_contiguous ? kLeastGroupLines : kThreads);
    const int64_t groups = min(min(by_blocks, by_lines), kMostGroups);
    return groups > 1 ? groups : 1;
}

// Rows: a piece per warp of each tile of k (every warp of the grid writes its pieces). Columns: a piece per stretch.
int64_t line_square_pieces(const OperandLines& op) {
    if (op.k_contiguous) return ceil_div(op.k, kRowTileK) * kWarps;
    return ceil_div(op.k, column_stretch(op, k_squares_groups(op)));
}

mm_status launch_line_survey(const OperandLines& op, unsigned* max_bits, int* flags, const KSquares& sums,
                             const LineSquares& lines, cudaStream_t stream) {
    if (op.k_contiguous) {
        const int64_t group_lines = ceil_div(op.lines, sums.groups);
        const dim3 grid(unsigned(ceil_div(op.k, kRowTileK)), unsigned(sums.groups));
        return launch(survey_along_rows, grid, dim3(kThreads), 0, stream, "the lines' survey", op, max_bits, flags,
                      sums, lines, group_lines);
    }
    const int64_t group_lines = ceil_div(ceil_div(op.lines, sums.groups), kThreads) * kThreads;
    const int stretch = column_stretch(op, sums.groups);
    const dim3 grid(unsigned(ceil_div(op.k, stretch)), unsigned(sums.groups));
    return launch(survey_along_columns, grid, dim3(kThreads), 0, stream, "the lines' survey", op, stretch, max_bits,
                  flags, sums, lines, group_lines);
}

}  // namespace gemm
