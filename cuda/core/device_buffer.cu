#include "core/device_buffer.h"

#include <mutex>
#include <vector>

namespace {

// The current device's pool of a kind, created on first use and kept for the life of the process.
mm_status library_pool(DeviceBuffer::Pool kind, cudaMemPool_t* pool) {
    int device = 0;
    mm_status st = mm_check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    if (st != MM_OK) return st;
    static std::mutex mutex;
    static std::vector<cudaMemPool_t> pools;  // two per device: staging, workspace
    std::lock_guard<std::mutex> lock(mutex);
    const size_t index = 2 * size_t(device) + (kind == DeviceBuffer::Pool::kWorkspace);
    if (pools.size() <= index) pools.resize(index + 1, nullptr);
    if (pools[index] == nullptr) {
        cudaMemPoolProps props = {};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = device;
        cudaMemPool_t created = nullptr;
        st = mm_check_cuda(cudaMemPoolCreate(&created, &props), "cudaMemPoolCreate");
        if (st != MM_OK) return st;
        uint64_t retain = kind == DeviceBuffer::Pool::kWorkspace ? DeviceBuffer::kWorkspaceRetainBytes
                                                                 : DeviceBuffer::kStagingRetainBytes;
        st = mm_check_cuda(cudaMemPoolSetAttribute(created, cudaMemPoolAttrReleaseThreshold, &retain),
                           "cudaMemPoolSetAttribute(release threshold)");
        if (st != MM_OK) {
            cudaMemPoolDestroy(created);
            return st;
        }
        pools[index] = created;
    }
    *pool = pools[index];
    return MM_OK;
}

}  // namespace

mm_status DeviceBuffer::allocate(size_t bytes, const char* what) {
    cudaMemPool_t pool = nullptr;
    const mm_status st = library_pool(pool_, &pool);
    if (st != MM_OK) return st;
    const cudaError_t err = cudaMallocFromPoolAsync(&data_, bytes, pool, stream_);
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
