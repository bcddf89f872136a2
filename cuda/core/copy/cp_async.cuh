// cp.async (sm_80+), global -> shared without passing through registers (device). The global operand is
// converted to a global-space address explicitly; the shared one is a 32-bit shared-window address.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace gemm {

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

// Arrives on the mbarrier at bar once every cp.async this thread has issued so far has landed. noinc: the arrival is
// one of the barrier's expected arrivals (its initial count includes it), not an extra one.
__device__ __forceinline__ void cp_async_mbarrier_arrive_noinc(uint32_t bar) {
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}

// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

}  // namespace gemm
