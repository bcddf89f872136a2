#include "core/device_buffer.h"

#include <mutex>
#include <vector>

namespace {

// The workspace pool of the current device, created on first use and kept for the life of the process.
mm_status workspace_pool(cudaMemPool_t* pool) {
    int device = 0;
    mm_status st = mm_check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    if (st != MM_OK) return st;
    static std::mutex mutex;
    static std::vector<cudaMemPool_t> pools;
    std::lock_guard<std::mutex> lock(mutex);
    if (pools.size() <= size_t(device)) pools.resize(device + 1, nullptr);
    if (pools[device] == nullptr) {
        cudaMemPoolProps props = {};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = device;
        cudaMemPool_t created = nullptr;
        st = mm_check_cuda(cudaMemPoolCreate(&created, &props), "cudaMemPoolCreate(workspace pool)");
        if (st != MM_OK) return st;
        uint64_t retain = DeviceBuffer::kWorkspaceRetainBytes;
        st = mm_check_cuda(cudaMemPoolSetAttribute(created, cudaMemPoolAttrReleaseThreshold, &retain),
                           "cudaMemPoolSetAttribute(workspace pool release threshold)");
        if (st != MM_OK) {
            cudaMemPoolDestroy(created);
            return st;
        }
        pools[device] = created;
    }
    *pool = pools[device];
    return MM_OK;
}

}  // namespace

mm_status DeviceBuffer::allocate(size_t bytes, const char* what) {
    cudaError_t err;
    if (pool_ == Pool::kWorkspace) {
        cudaMemPool_t pool = nullptr;
        const mm_status st = workspace_pool(&pool);
        if (st != MM_OK) return st;
        err = cudaMallocFromPoolAsync(&data_, bytes, pool, stream_);
    } else {
        err = cudaMallocAsync(&data_, bytes, stream_);
    }
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
