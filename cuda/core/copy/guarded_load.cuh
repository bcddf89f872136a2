// Guarded global-memory loads through registers (device), for the rungs that stage operands by hand.
//
// Edge tiles read zeros beyond the matrix instead of branching around the arithmetic, so the inner loops
// stay branch-free. The vector path (one 16-byte load) is taken only when the caller proved alignment
// (`kVector`, from rows_aligned16 / vector_aligned) and all four elements lie inside the row; every other case
// falls back to per-element guarded loads, so ragged edges and unaligned leading dimensions never fault.
#pragma once

#include <cuda_runtime.h>

namespace gemm {

// How a guarded load reads: one float, or four at a 16-byte aligned address.
// CachedLoad: through the read-only data cache (__ldg), for operands a kernel reads more than once.
struct CachedLoad {
    __device__ static float one(const float* p) { return __ldg(p); }
    __device__ static float4 four(const float* p) { return __ldg(reinterpret_cast<const float4*>(p)); }
};

// StreamedLoad: bypassing L1 (ld.global.nc.L1::no_allocate), for an operand read once, so that what the kernel
// reads again stays there.
struct StreamedLoad {
    __device__ static float one(const float* p) {
        float v;
        asm("ld.global.nc.L1::no_allocate.f32 %0, [%1];" : "=f"(v) : "l"(p));
        return v;
    }
    __device__ static float4 four(const float* p) {
        float4 v;
        asm("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];"
            : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
            : "l"(p));
        return v;
    }
};

// L2Load: from L2, bypassing L1 (ld.global.cg), for data that other blocks of the same kernel wrote before a grid
// barrier (the read-only path may not see it), such as split-K's slices summed in the launch that wrote them.
struct L2Load {
    __device__ static float one(const float* p) { return __ldcg(p); }
    __device__ static float4 four(const float* p) { return __ldcg(reinterpret_cast<const float4*>(p)); }
};

// Four consecutive elements row[col .. col+3] read by Load; elements at or past `limit` read as zero. A row outside
// the matrix is passed with limit 0 and is never dereferenced. `vector`: the caller's alignment promise.
template <class Load>
__device__ __forceinline__ float4 guarded_row4(const float* row, int col, int limit, bool vector) {
    if (vector && col + 3 < limit) return Load::four(row + col);
    float4 v;
    v.x = col + 0 < limit ? Load::one(row + col + 0) : 0.0f;
    v.y = col + 1 < limit ? Load::one(row + col + 1) : 0.0f;
    v.z = col + 2 < limit ? Load::one(row + col + 2) : 0.0f;
    v.w = col + 3 < limit ? Load::one(row + col + 3) : 0.0f;
    return v;
}

// guarded_row4 through the read-only cache, with the alignment promise known at compile time.
template <bool kVector>
__device__ __forceinline__ float4 load_row4(const float* row, int col, int limit) {
    return guarded_row4<CachedLoad>(row, col, limit, kVector);
}

}  // namespace gemm
