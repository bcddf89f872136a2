// Guarded global-memory access shared by the tiled kernels.
//
// Edge tiles read zeros beyond the matrix instead of branching around the arithmetic, so the inner loops
// stay branch-free. The vector path (one 16-byte load) is taken only when the caller proved alignment
// (`kVector`, from vector_aligned) and all four elements lie inside the row; every other case falls back to
// per-element guarded loads, so ragged edges and unaligned leading dimensions never fault.
#pragma once

#include "gemm_args.cuh"

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

// ---- Additions for the warp-tiled rungs (warptile, pipelined, splitk, best) ----------------------------
// Helpers below take a pointer plus a count of in-bounds elements (`valid`) where that is simpler: the
// caller computes the count once from "rows/columns left in this block", which keeps the 64-bit address
// arithmetic out of the bounds logic and lets a constant count (interior tiles) fold every check away.

namespace mmk {

// Component i (a compile-time constant after unrolling) of a float4; keeps register arrays free of dynamic
// indexing, which would force them to local memory.
__device__ __forceinline__ float f4_get(const float4& v, int i) {
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

// Number of tiles of size `tile` covering n >= 1 elements; n - 1 avoids the overflow of n + tile - 1.
__host__ __device__ __forceinline__ unsigned tiles_of(int n, int tile) { return unsigned((n - 1) / tile + 1); }

// Writes v[j] to p[j] for j < valid; one float4 store when kAligned and all four are in bounds.
template <bool kAligned>
__device__ __forceinline__ void store4(float* p, int valid, const float4& v) {
    if (kAligned && valid >= 4) {
        *reinterpret_cast<float4*>(p) = v;
        return;
    }
    if (valid > 0) p[0] = v.x;
    if (valid > 1) p[1] = v.y;
    if (valid > 2) p[2] = v.z;
    if (valid > 3) p[3] = v.w;
}

// Maps a linear block id to (tile row, tile column). Tiles are walked in column-major order inside bands of
// `group` tile rows, so the blocks resident at one time share a few A row-panels and B column-panels and
// hit in L2 (group = 1 gives plain row-major order). 64-bit so that a band never overflows even for
// M or N near INT32_MAX.
__device__ __forceinline__ void tile_coords(unsigned pid, unsigned num_bm, unsigned num_bn, unsigned group,
                                            int& bm, int& bn) {
    const uint64_t per_band = uint64_t(group) * num_bn;
    const uint64_t band = pid / per_band;
    const uint64_t first = band * group;
    const uint64_t rows = (num_bm - first < group) ? num_bm - first : group;
    const uint64_t r = pid - band * per_band;
    bm = static_cast<int>(first + r % rows);
    bn = static_cast<int>(r / rows);
}

// ---- cp.async (sm_80+) -------------------------------------------------------------------------------
// The global operand is converted to a global-space address explicitly; the shared one is a 32-bit
// shared-window address.

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// 16 bytes, L2 only (.cg): the tile is staged in shared memory, so an L1 copy would be wasted capacity.
__device__ __forceinline__ void cp_async16(uint32_t dst, const float* src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(__cvta_generic_to_global(src)));
}

// 4 bytes (.ca is the only cache mode allowed for sizes below 16).
__device__ __forceinline__ void cp_async4(uint32_t dst, const float* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(dst), "l"(__cvta_generic_to_global(src)));
}

// Zero-filling form: with valid == false the source size is 0, nothing is read and the destination is
// zeroed. The caller still passes a dereferenceable `src` (the matrix base) for invalid elements so that
// no out-of-range address ever reaches the memory system.
__device__ __forceinline__ void cp_async4_zfill(uint32_t dst, const float* src, bool valid) {
    const int bytes = valid ? 4 : 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(__cvta_generic_to_global(src)),
                 "r"(bytes));
}

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

}  // namespace mmk
