// CUDA driver functions by name (host only), fetched at run time so that the library does not link libcuda.
#pragma once

#include <cuda_runtime.h>

namespace gemm {

// The driver's `symbol` with its signature as of CUDA `version` (12000 for 12.0), or nullptr where this driver lacks
// it; either way no CUDA error is left behind.
inline void* driver_entry_point(const char* symbol, int version) {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(symbol, &function, version, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
        cudaGetLastError();  // not sticky; clear it so the next check does not report it
        return nullptr;
    }
    return function;
}

}  // namespace gemm
