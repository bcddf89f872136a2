// The non-finite fix-up (host interface; the kernel is in nonfinite_fixup.cu): for kernels whose arithmetic cannot
// carry Inf as IEEE fp32 does (the 3xTF32 split turns Inf * x into Inf * big + Inf * small, whose signs may differ),
// the rows and columns of C that a flagged row of op(A) or column of op(B) reaches (one the kernel cannot carry: an
// Inf, a NaN, or for the split a value that rounds past the fp32 maximum) are recomputed as plain fp32 dot products.
#pragma once

#include "core/problem.h"

namespace gemm {

// C(i, j) = sum over k of op(A)(i, k) * op(B)(k, j) in fp32, for every row i with row_flags[i] != 0 and every column
// j with column_flags[j] != 0 (op(A), op(B) read as g describes them). Blocks whose line is not flagged return at
// once, so a call with nothing flagged costs one read of M + N flags.
mm_status launch_nonfinite_fixup(const GemmArgs& g, const int* row_flags, const int* column_flags,
                                 cudaStream_t stream);

}  // namespace gemm
