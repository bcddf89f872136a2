// shortk: a short K (a rank-k update, K up to 16), whose cost is writing C.
//
// Technique: C = op(A)·op(B) with K <= 16 does at most 32 FLOP per 4-byte element of C it writes, and reads
// operands that are small beside C, so HBM's write bandwidth bounds it: the product is a fill of C with some
// arithmetic on the way. The tiled rungs compute a whole tile and then store it, so their stores come in bursts
// after the arithmetic and K's few steps leave the pipeline no time to fill. Here a block owns a panel of 128
// columns of C and a strip of rows: each lane holds its 4 columns of the panel's op(B) (K x 4 values) in registers
// for the block's life, A's strip waits in shared memory, and each warp turns out 4 rows of C at a time, every one a
// 512-byte row piece written by one 16-byte streaming store per lane (st.global.cs: C is not read again here, so it
// should not displace the operands in L2). Stores leave every few dozen FMAs, so that the writes can flow while the
// SMs compute.
//
// Every op combination is read as stored: the strip of op(A) and the panel of op(B) are staged element by element
// in the order that keeps each warp's loads contiguous, once per block; C's rows take float4 stores where they are
// 16-byte aligned, else single ones. K is rounded up to 1, 2, 4, 8 or 16 (zeros past K: the sums are unchanged).
// Every element of C is one sum in k order, so the same inputs give the same bits.
//
// Changes vs the tiled rungs (pipelined, tma): no K loop and no shared-memory tile of B; a block's columns are
// fixed and its rows stream, so op(B)'s panel is loaded once per block and the store stream never stops.
//
// Parameters: 256 threads (8 warps), 2 blocks per SM; a panel of 128 columns (4 per lane); a warp's 4 rows at a
// time (2 at K = 16); a strip of kStripRows rows per block, blocks striding over strips past the grid's 65535.
#include "kernels/shortk.h"

#include "core/configs/pipelined.h"
#include "core/launch.h"

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kPanelColumns = 4 * 32;  // a lane's float4 of a row
// Rows of C a warp sums between stores: 4, or 2 where K x 4 values of op(B) already take half the registers.
__host__ __device__ constexpr int rows_at_once(int k) { return k >= 16 ? 2 : 4; }
constexpr int kMinBlocksPerSm = 2;
constexpr int kMaxGridStrips = 65535;  // gridDim.y's limit

// C's strip of rows that one block writes; a multiple of what the 8 warps take per turn.
constexpr int kStripRows = 128;
static_assert(kStripRows % (kWarps * rows_at_once(1)) == 0, "a strip is whole turns of the warps");

// op(A)(m, k) and op(B)(k, n) as stored.
__device__ __forceinline__ float a_at(const GemmArgs& g, int m, int k) {
    return g.op_a == MM_OP_N ? g.A[int64_t(m) * g.lda + k] : g.A[int64_t(k) * g.lda + m];
}
__device__ __forceinline__ float b_at(const GemmArgs& g, int k, int n) {
    return g.op_b == MM_OP_N ? g.B[int64_t(k) * g.ldb + n] : g.B[int64_t(n) * g.ldb + k];
}

// One row piece of C: 4 consecutive columns from n, as one streaming float4 where the row is aligned and whole.
template <bool kVectorC>
__device__ __forceinline__ void store_quad(const GemmArgs& g, int m, int n, const float (&sum)[4]) {
    float* c = g.C + int64_t(m) * g.ldc + n;
    if (kVectorC && n + 3 < g.N) {
        __stcs(reinterpret_cast<float4*>(c), make_float4(sum[0], sum[1], sum[2], sum[3]));
        return;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j)
        if (n + j < g.N) __stcs(c + j, sum[j]);
}

// C = op(A)·op(B) for K <= kK: block (x, y) writes columns 128x .. 128x + 127 of strips y, y + gridDim.y, ...
template <int kK, bool kVectorC>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) shortk_kernel(GemmArgs g) {
    constexpr int kRowsAtOnce = rows_at_once(kK);
    __shared__ __align__(16) float strip[kStripRows][kK];  // op(A)'s rows of the strip, zeros past M and K
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int n = blockIdx.x * kPanelColumns + 4 * lane;

    float b[kK][4];  // this lane's columns of op(B), zeros past N and K
#pragma unroll
    for (int k = 0; k < kK; ++k)
#pragma unroll
        for (int j = 0; j < 4; ++j) b[k][j] = k < g.K && n + j < g.N ? b_at(g, k, n + j) : 0.f;

    for (int64_t m0 = int64_t(blockIdx.y) * kStripRows; m0 < g.M; m0 += int64_t(gridDim.y) * kStripRows) {
        // Contiguous loads: along k where op(A)'s rows are stored rows (op N), along m where its columns are.
        for (int i = threadIdx.x; i < kStripRows * kK; i += kThreads) {
            const int r = g.op_a == MM_OP_N ? i / kK : i % kStripRows;
            const int k = g.op_a == MM_OP_N ? i % kK : i / kStripRows;
            strip[r][k] = m0 + r < g.M && k < g.K ? a_at(g, int(m0) + r, k) : 0.f;
        }
        __syncthreads();
        for (int r = warp * kRowsAtOnce; r < kStripRows && m0 + r < g.M; r += kWarps * kRowsAtOnce) {
            float sum[kRowsAtOnce][4] = {};
#pragma unroll
            for (int k = 0; k < kK; ++k)
#pragma unroll
                for (int i = 0; i < kRowsAtOnce; ++i) {
                    const float a = strip[r + i][k];  // the same address across the warp: a broadcast
#pragma unroll
                    for (int j = 0; j < 4; ++j) sum[i][j] = fmaf(a, b[k][j], sum[i][j]);
                }
#pragma unroll
            for (int i = 0; i < kRowsAtOnce; ++i)
                if (m0 + r + i < g.M) store_quad<kVectorC>(g, int(m0) + r + i, n, sum[i]);
        }
        __syncthreads();  // the strip is read before the next one overwrites it
    }
}

template <int kK>
mm_status launch_k(const GemmArgs& g, cudaStream_t stream) {
    const int64_t strips = (int64_t(g.M) - 1) / kStripRows + 1;
    const dim3 grid(tiles_of(g.N, kPanelColumns), unsigned(strips < kMaxGridStrips ? strips : kMaxGridStrips));
    const auto kernel = rows_aligned16(g.C, g.ldc) ? shortk_kernel<kK, true> : shortk_kernel<kK, false>;
    return gemm::launch(kernel, grid, dim3(kThreads), 0, stream, "shortk", g);
}

bool takes_unsplit(const GemmArgs& g, int splits) { return splits == 1 && shortk::takes(g); }

mm_status launch_unsplit(const GemmArgs& g, int /*splits*/, cudaStream_t stream) {
    if (g.K <= 1) return launch_k<1>(g, stream);
    if (g.K <= 2) return launch_k<2>(g, stream);
    if (g.K <= 4) return launch_k<4>(g, stream);
    if (g.K <= 8) return launch_k<8>(g, stream);
    return launch_k<16>(g, stream);
}

}  // namespace

namespace shortk {

bool takes(const GemmArgs& g) { return g.K <= kMaxK; }

constinit const gemm::ConfigDesc kConfig{.name = "shortk",
                                         .block = {kStripRows, kPanelColumns, kMaxK},
                                         .blocks_per_sm = kMinBlocksPerSm,
                                         .splits_k = false,
                                         .can_run = &takes_unsplit,
                                         .launch = &launch_unsplit,
                                         .fallback = &pipelined::k64x128x16,
                                         .reads_op_t_b = true,
                                         .streams = true};

}  // namespace shortk

// Registry entry point: the kernel for K up to shortk::kMaxK, else its fallback.
mm_status launch_shortk(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(shortk::kConfig, g, 1, stream);
}
