// Guarded global-memory loads through registers (device), for the rungs that stage operands by hand.
//
// Edge tiles read zeros beyond the matrix instead of branching around the arithmetic, so the inner loops
// stay branch-free. The vector path (one 16-byte load) is taken only when the caller proved alignment
// (`kVector`, from rows_aligned16 / vector_aligned) and all four elements lie inside the row; every other case
// falls back to per-element guarded loads, so ragged edges and unaligned leading dimensions never fault.
#pragma once

#include <cuda_runtime.h>

namespace gemm {

// Four consecutive elements row[col .. col+3]; elements at or past `limit` read as zero. A row outside the
// matrix is passed with limit 0 and is never dereferenced.
template <bool kVector>
__device__ __forceinline__ float4 load_row4(const float* row, int col, int limit) {
    if (kVector && col + 3 < limit) return __ldg(reinterpret_cast<const float4*>(row + col));
    float4 v;
    v.x = col + 0 < limit ? __ldg(row + col + 0) : 0.0f;
    v.y = col + 1 < limit ? __ldg(row + col + 1) : 0.0f;
    v.z = col + 2 < limit ? __ldg(row + col + 2) : 0.0f;
    v.w = col + 3 < limit ? __ldg(row + col + 3) : 0.0f;
    return v;
}

}  // namespace gemm
