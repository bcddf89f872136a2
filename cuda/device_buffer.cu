#include "device_buffer.h"

mm_status DeviceBuffer::allocate(size_t bytes, const char* what) {
    cudaError_t err = cudaMallocAsync(&data_, bytes, stream_);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();  // an allocation failure is not sticky; clear it so the next call starts clean
        data_ = nullptr;
        size_t free_bytes = 0, total_bytes = 0;
        cudaMemGetInfo(&free_bytes, &total_bytes);
        return mm_fail(MM_ERR_OUT_OF_MEMORY,
                       "out of device memory allocating %s: asked for %zu bytes, %zu bytes free of %zu",
                       what, bytes, free_bytes, total_bytes);
    }
    return mm_check_cuda(err, what);
}
