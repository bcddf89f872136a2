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

}  // namespace mmk
