// Cached device properties for the launchers' shape heuristics (host only).
#pragma once

#include <atomic>

#include "gemm_args.cuh"

namespace mmk {

// Attribute `Attr` of the current device, queried once per device ordinal (cudaDeviceGetAttribute is cheap
// but not free, and the heuristics ask on every launch). Every attribute cached here is positive.
template <cudaDeviceAttr Attr>
mm_status cached_attribute(int* value, const char* what) {
    static std::atomic<int> cache[64];  // 0 = not queried yet
    int dev = 0;
    mm_status st = mm_check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
    if (st != MM_OK) return st;
    std::atomic<int>* slot = (dev >= 0 && dev < 64) ? &cache[dev] : nullptr;
    int n = slot ? slot->load(std::memory_order_relaxed) : 0;
    if (n == 0) {
        st = mm_check_cuda(cudaDeviceGetAttribute(&n, Attr, dev), what);
        if (st != MM_OK) return st;
        if (slot) slot->store(n, std::memory_order_relaxed);
    }
    *value = n;
    return MM_OK;
}

// Multiprocessor count of the current device.
inline mm_status sm_count(int* count) {
    return cached_attribute<cudaDevAttrMultiProcessorCount>(count, "cudaDeviceGetAttribute(MultiProcessorCount)");
}

// Major compute capability of the current device.
inline mm_status compute_major(int* major) {
    return cached_attribute<cudaDevAttrComputeCapabilityMajor>(major, "cudaDeviceGetAttribute(ComputeCapabilityMajor)");
}

// Lets `kernel` use `smem_bytes` of dynamic shared memory, with the largest shared-memory carveout, on the
// current device. Both are per-device function attributes: they are set once per device ordinal (< 64),
// recorded in `configured_devices`, which the caller keeps per kernel instantiation.
inline mm_status raise_shared_memory_limit(const void* kernel, int smem_bytes, std::atomic<uint64_t>& configured_devices,
                                           const char* what) {
    int dev = 0;
    mm_status st = mm_check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
    if (st != MM_OK) return st;
    const uint64_t bit = uint64_t(1) << (dev & 63);
    if (configured_devices.load(std::memory_order_acquire) & bit) return MM_OK;
    st = mm_check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes), what);
    if (st != MM_OK) return st;
    // Operands live in shared memory; ask for the largest carveout so that several blocks fit.
    st = mm_check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                            int(cudaSharedmemCarveoutMaxShared)),
                       what);
    if (st != MM_OK) return st;
    configured_devices.fetch_or(bit, std::memory_order_release);
    return MM_OK;
}

}  // namespace mmk
