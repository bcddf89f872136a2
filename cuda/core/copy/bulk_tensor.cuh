// Hopper (sm_90) tensor-memory-accelerator copies and the mbarriers they complete on (device).
//
// A bulk tensor copy moves a whole 2-D box of a matrix, described by a CUtensorMap built on the host,
// from global into shared memory. One thread issues it; the hardware computes every address, zero-fills
// the part of the box outside the matrix, and counts the bytes it wrote into an mbarrier's transaction
// count. Consumers wait on that mbarrier's phase. The instructions exist from sm_90 on; built for an older
// target every helper traps instead (MMK_SM90 below), and tensor_map.h's support check keeps such a build
// from being launched.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "core/copy/cp_async.cuh"

namespace gemm {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define MMK_SM90(...) __trap()
#else
#define MMK_SM90(...) __VA_ARGS__
#endif

// Bytes a 128-byte-swizzled tile must start on: the swizzle's atom of eight 128-byte rows.
constexpr int kSwizzleAtomBytes = 1024;

// The first swizzle-atom boundary of the dynamic shared memory at smem_raw (the kernel asks for kSwizzleAtomBytes
// more than it uses), offset from the array itself rather than through an integer, so that the compiler keeps the
// accesses in shared space (LDS/STS).
__device__ __forceinline__ uint8_t* swizzle_aligned(uint8_t* smem_raw) {
    return smem_raw + (kSwizzleAtomBytes - smem_addr(smem_raw) % kSwizzleAtomBytes) % kSwizzleAtomBytes;
}

__device__ __forceinline__ void mbarrier_init(uint32_t bar, int arrivals) {
    MMK_SM90(asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals)));
}

// Makes the initialised barriers visible to the copy engine (async proxy) before any copy uses them.
__device__ __forceinline__ void mbarrier_init_fence() {
    MMK_SM90(asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"));
}

// One arrival that also announces `bytes` more to come from copies; the phase completes when they land.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
    MMK_SM90(asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory"));
}

// One plain arrival (release: this thread's earlier shared-memory writes are visible to whoever waits on the phase).
__device__ __forceinline__ void mbarrier_arrive(uint32_t bar) {
    MMK_SM90(asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory"));
}

// Blocks until the phase with the given parity has completed.
__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t parity) {
    MMK_SM90(asm volatile(
        "{\n .reg .pred done;\n"
        "MBAR_WAIT_%=:\n"
        " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        " @!done bra MBAR_WAIT_%=;\n}" ::"r"(bar),
        "r"(parity)
        : "memory"));
}

// Orders this thread's earlier shared-memory accesses before later copy-engine accesses to the same memory.
__device__ __forceinline__ void fence_proxy_async_shared() {
    MMK_SM90(asm volatile("fence.proxy.async.shared::cta;" ::: "memory"));
}

__device__ __forceinline__ void prefetch_tensor_map(const void* map) {
    MMK_SM90(asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory"));
}

// Copies the box whose first element is (x = inner coordinate, y = outer) into shared memory at dst,
// completing on `bar`. `map` must be a __grid_constant__ kernel parameter (or otherwise in global memory).
__device__ __forceinline__ void bulk_tensor_load_2d(uint32_t dst, const void* map, uint32_t bar, int x, int y) {
    MMK_SM90(asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(x), "r"(y)
        : "memory"));
}

#undef MMK_SM90

}  // namespace gemm
