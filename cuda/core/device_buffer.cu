#include "core/device_buffer.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace {

// The library's pools, two per device (index 2 * device: staging, 2 * device + 1: workspace), each created on first
// use and kept for the life of the process (null until then). Never destroyed, so that no CUDA call runs during
// the process's exit.
struct LibraryPools {
    std::mutex mutex;
    std::vector<cudaMemPool_t> pools;
};

LibraryPools& library_pools() {
    static auto* pools = new LibraryPools();
    return *pools;
}

// The pools created so far, as library_pools() indexes them; the handles stay valid, as no pool is destroyed.
std::vector<cudaMemPool_t> created_pools() {
    LibraryPools& pools = library_pools();
    std::lock_guard<std::mutex> lock(pools.mutex);
    return pools.pools;
}

// The current device's pool of a kind.
mm_status library_pool(DeviceBuffer::Pool kind, cudaMemPool_t* pool) {
    int device = 0;
    mm_status st = mm_check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    if (st != MM_OK) return st;
    LibraryPools& pools = library_pools();
    std::lock_guard<std::mutex> lock(pools.mutex);
    const size_t index = 2 * size_t(device) + (kind == DeviceBuffer::Pool::kWorkspace);
    if (pools.pools.size() <= index) pools.pools.resize(2 * size_t(device) + 2, nullptr);
    if (pools.pools[index] == nullptr) {
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
        pools.pools[index] = created;
    }
    *pool = pools.pools[index];
    return MM_OK;
}

// Waits for `device`'s work, then trims its pools (the two from `pools`, either may be null); makes it current.
mm_status trim_device(int device, const cudaMemPool_t* pools) {
    MM_TRY(mm_check_cuda(cudaSetDevice(device), "cudaSetDevice"));
    MM_TRY(mm_check_cuda(cudaDeviceSynchronize(), "waiting for the GPU before trimming the library's pools"));
    for (int kind = 0; kind < 2; ++kind)
        if (pools[kind] != nullptr) MM_TRY(mm_check_cuda(cudaMemPoolTrimTo(pools[kind], 0), "cudaMemPoolTrimTo"));
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

mm_status device_pools_idle_bytes(uint64_t* bytes) {
    *bytes = 0;
    for (cudaMemPool_t pool : created_pools()) {
        if (pool == nullptr) continue;
        uint64_t reserved = 0, used = 0;
        MM_TRY(mm_check_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved),
                             "cudaMemPoolGetAttribute(reserved memory)"));
        MM_TRY(mm_check_cuda(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used),
                             "cudaMemPoolGetAttribute(used memory)"));
        *bytes += reserved > used ? reserved - used : 0;  // read apart: an allocation may land in between
    }
    return MM_OK;
}

mm_status trim_device_pools() {
    const std::vector<cudaMemPool_t> pools = created_pools();
    if (std::all_of(pools.begin(), pools.end(), [](cudaMemPool_t pool) { return pool == nullptr; })) return MM_OK;
    int current = 0;
    MM_TRY(mm_check_cuda(cudaGetDevice(&current), "cudaGetDevice"));
    // Every GPU is trimmed; the status is the last failure's, the one whose message mm_last_error holds.
    mm_status status = MM_OK;
    for (size_t index = 0; index < pools.size(); index += 2) {
        if (pools[index] == nullptr && pools[index + 1] == nullptr) continue;
        const mm_status st = trim_device(int(index / 2), &pools[index]);
        if (st != MM_OK) status = st;
    }
    const mm_status st = mm_check_cuda(cudaSetDevice(current), "cudaSetDevice");
    return st != MM_OK ? st : status;
}
