// Cached device properties for the launchers' shape heuristics (host only).
#pragma once

#include <atomic>

#include "gemm_args.cuh"

namespace mmk {

// Multiprocessor count of the current device, queried once per device ordinal (cudaDeviceGetAttribute is
// cheap but not free, and the heuristics ask on every launch).
inline mm_status sm_count(int* count) {
    static std::atomic<int> cache[64];  // 0 = not queried yet
    int dev = 0;
    mm_status st = mm_check_cuda(cudaGetDevice(&dev), "cudaGetDevice");
    if (st != MM_OK) return st;
    std::atomic<int>* slot = (dev >= 0 && dev < 64) ? &cache[dev] : nullptr;
    int n = slot ? slot->load(std::memory_order_relaxed) : 0;
    if (n == 0) {
        st = mm_check_cuda(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev),
                           "cudaDeviceGetAttribute(MultiProcessorCount)");
        if (st != MM_OK) return st;
        if (slot) slot->store(n, std::memory_order_relaxed);
    }
    *count = n;
    return MM_OK;
}

}  // namespace mmk
