#include "core/epilogue/nonfinite_fixup.h"

#include <algorithm>

#include "core/launch.h"

namespace gemm {

namespace {

constexpr int kThreads = 256;
// Blocks of the grid: enough to spread flagged lines over the SMs, few enough that a call with nothing flagged (the
// common case) costs about one launch.
constexpr int kMaxBlocks = 1024;

// Line l < M is row l of C, line M + j column j; blocks take the lines with a grid stride.
__global__ void __launch_bounds__(kThreads)
    nonfinite_fixup_kernel(const GemmArgs g, const int* __restrict__ row_flags, const int* __restrict__ column_flags) {
    const int64_t lines = int64_t(g.M) + g.N;
    for (int64_t line = blockIdx.x; line < lines; line += gridDim.x) {
        const bool row = line < g.M;
        const int64_t index = row ? line : line - g.M;
        if ((row ? row_flags[index] : column_flags[index]) == 0) continue;
        const int64_t count = row ? g.N : g.M;
        for (int64_t e = threadIdx.x; e < count; e += kThreads) {
            const int64_t i = row ? index : e, j = row ? e : index;
            if (!row && row_flags[i] != 0) continue;  // that row's block writes the element
            float sum = 0.0f;
            for (int64_t k = 0; k < g.K; ++k) {
                const float a = g.op_a == MM_OP_N ? g.A[i * g.lda + k] : g.A[k * g.lda + i];
                const float b = g.op_b == MM_OP_N ? g.B[k * g.ldb + j] : g.B[j * g.ldb + k];
                sum = fmaf(a, b, sum);
            }
            g.C[i * g.ldc + j] = sum;
        }
    }
}

}  // namespace

mm_status launch_nonfinite_fixup(const GemmArgs& g, const int* row_flags, const int* column_flags,
                                 cudaStream_t stream) {
    const int64_t lines = int64_t(g.M) + g.N;
    return gemm::launch(nonfinite_fixup_kernel, unsigned(std::min<int64_t>(lines, kMaxBlocks)), kThreads, 0, stream,
                        "the non-finite fix-up", g, row_flags, column_flags);
}

}  // namespace gemm
