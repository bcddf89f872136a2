// Rearranging matrices on the GPU (host interface; the kernels are in rearrange.cu): what lets every kernel take
// any operand layout and alpha, beta without a host round trip.
#pragma once

#include "core/device_buffer.h"
#include "core/problem.h"

namespace gemm {

// dst (rows x cols, row-major, leading dimension ld_dst) = the matrix whose element (r, c) is
// src[r * row_stride + c * column_stride]: a transposed view (row_stride 1) or any other strides; with
// round_to_tf32, every value rounded to TF32 (cvt.rna.tf32.f32) on the way.
mm_status launch_gather(const float* src, int64_t rows, int64_t cols, int64_t row_stride, int64_t column_stride,
                        float* dst, int64_t ld_dst, cudaStream_t stream, bool round_to_tf32 = false);

// launch_gather's rows x cols result in `workspace` (allocated on `stream`, rows padded to 4 floats: padded_ld);
// *out and *ld_out describe the copy.
mm_status gathered_copy(const float* src, int64_t rows, int64_t cols, int64_t row_stride, int64_t column_stride,
                        bool round_to_tf32, DeviceBuffer& workspace, const char* what, const float** out,
                        int64_t* ld_out, cudaStream_t stream);

// The same gather writing each value's TF32 split (core/mma/tf32_mma_sync.cuh, split_tf32): its big part to `big`,
// its small part to `small`, both rows x cols with leading dimension ld_dst; row_flags[r] is set to 1 for every
// row r holding a value whose big part is not finite (an Inf or NaN, or a value that rounds up past the fp32
// maximum) and left as it was otherwise.
mm_status launch_tf32_split_gather(const float* src, int64_t rows, int64_t cols, int64_t row_stride,
                                   int64_t column_stride, float* big, float* small, int* row_flags, int64_t ld_dst,
                                   cudaStream_t stream);

// op(X) = the transpose of X (stored cols x rows, leading dimension ld) as a row-major rows x cols copy in
// `workspace` (allocated on `stream`, rows padded to 4 floats: padded_ld), for a kernel that cannot read X
// transposed; *out and *ld_out describe the copy.
mm_status transposed_copy(const float* X, int64_t ld, int64_t rows, int64_t cols, DeviceBuffer& workspace,
                          const char* what, const float** out, int64_t* ld_out, cudaStream_t stream);

// The N·N problem of g (op_a = N, op_b = T: B stored N x K, a linear layer's weight) with op(B) copied row-major into
// `rows` (allocated on `stream`): for the FFMA tiles, whose element-wise transposing copies of every B tile measure
// slower than this one pass (docs/experiments/2026-12-01-native-op-t.md).
mm_status with_b_in_rows(const GemmArgs& g, DeviceBuffer& rows, GemmArgs* n, cudaStream_t stream);

// C = alpha * P + beta * C over rows x cols, in place. P may be null (no product term: C = beta * C); beta = 0
// writes without reading C, so whatever C held (NaN included) does not show through, as in BLAS.
mm_status launch_scale_add(const float* P, int64_t ldp, float alpha, float beta, float* C, int64_t ldc, int64_t rows,
                           int64_t cols, cudaStream_t stream);

}  // namespace gemm
