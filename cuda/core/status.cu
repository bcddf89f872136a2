#include "core/status.h"

#include <cstdarg>
#include <cstdio>
#include <string>

namespace {
thread_local std::string last_error;
}

extern "C" const char* mm_last_error(void) { return last_error.c_str(); }

mm_status mm_fail(mm_status status, const char* format, ...) {
    char buffer[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    last_error = buffer;
    return status;
}

mm_status mm_check_cuda(cudaError_t err, const char* what) {
    if (err == cudaSuccess) return MM_OK;
    mm_status status = MM_ERR_CUDA;
    if (err == cudaErrorMemoryAllocation) status = MM_ERR_OUT_OF_MEMORY;
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver || err == cudaErrorInitializationError ||
        err == cudaErrorCompatNotSupportedOnDevice || err == cudaErrorSystemDriverMismatch)
        status = MM_ERR_NO_DEVICE;
    if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorUnsupportedPtxVersion)
        status = MM_ERR_UNAVAILABLE;
    return mm_fail(status, "%s: %s (%s)", what, cudaGetErrorString(err), cudaGetErrorName(err));
}
