#include <cstdio>
#include <cstring>

#include "api/validate.h"

namespace {

// FP32 FMA lanes per SM by architecture (CUDA C Programming Guide, arithmetic instruction throughput):
// 64 on GP100, Volta, Turing and GA100; 128 on the other architectures from Maxwell on, Hopper included.
int fp32_lanes_per_sm(int major, int minor) {
    if ((major == 6 && minor == 0) || major == 7 || (major == 8 && minor == 0)) return 64;
    return major >= 5 ? 128 : 0;
}

}  // namespace

extern "C" mm_status mm_device_info_get(mm_device_info* info) {
    if (info == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "info is a null pointer");
    MM_TRY(require_device());
    int device = 0;
    MM_TRY(mm_check_cuda(cudaGetDevice(&device), "cudaGetDevice"));
    cudaDeviceProp prop;
    MM_TRY(mm_check_cuda(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties"));
    std::memset(info, 0, sizeof *info);
    std::snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->sm_count = prop.multiProcessorCount;
    info->compute_capability_major = prop.major;
    info->compute_capability_minor = prop.minor;
    info->total_memory_bytes = prop.totalGlobalMem;
    size_t free_bytes = 0, total_bytes = 0;
    MM_TRY(mm_check_cuda(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo"));
    info->free_memory_bytes = free_bytes;
    MM_TRY(mm_check_cuda(cudaDeviceGetAttribute(&info->sm_clock_khz, cudaDevAttrClockRate, device),
                         "cudaDeviceGetAttribute(ClockRate)"));
    info->fp32_lanes_per_sm = fp32_lanes_per_sm(prop.major, prop.minor);
    MM_TRY(mm_check_cuda(cudaDriverGetVersion(&info->driver_version), "cudaDriverGetVersion"));
    info->runtime_version = CUDART_VERSION;
    return MM_OK;
}
