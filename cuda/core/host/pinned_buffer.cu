#include "core/host/pinned_buffer.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>

namespace {

// Pinned memory of `bytes` bytes, straight from the driver.
mm_status allocate_pinned(size_t bytes, void** p) {
    // Portable: the memory is pinned for every GPU of the process, not only the current one.
    const cudaError_t err = cudaHostAlloc(p, bytes, cudaHostAllocPortable);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        *p = nullptr;
        return mm_fail(MM_ERR_OUT_OF_MEMORY, "out of pinned host memory: cudaHostAlloc of %zu bytes failed", bytes);
    }
    return mm_check_cuda(err, "cudaHostAlloc");
}

}  // namespace

mm_status PinnedBuffer::reserve(size_t bytes) {
    if (bytes <= bytes_) return MM_OK;
    MM_TRY(mm_check_cuda(deallocate(), "cudaFreeHost"));
    MM_TRY(allocate_pinned(bytes, &data_));
    bytes_ = bytes;
    return MM_OK;
}

cudaError_t PinnedBuffer::deallocate() {
    const cudaError_t err = data_ != nullptr ? cudaFreeHost(data_) : cudaSuccess;
    data_ = nullptr;
    bytes_ = 0;
    return err;
}

bool is_pinned(const void* p, size_t bytes) {
    if (p == nullptr || bytes == 0) return false;
    const char* first = static_cast<const char*>(p);
    for (const char* q : {first, first + bytes - 1}) {
        cudaPointerAttributes attributes{};
        if (cudaPointerGetAttributes(&attributes, q) != cudaSuccess) {
            cudaGetLastError();
            return false;
        }
        if (attributes.type != cudaMemoryTypeHost) return false;
    }
    return true;
}

namespace {

// Blocks are whole numbers of 2 MiB (the large page size), so arrays of nearby sizes share a size class.
constexpr size_t kBlockGranule = size_t(2) << 20;

struct PinnedBlocks {
    std::mutex mutex;
    std::unordered_map<void*, size_t> size_of;  // the blocks handed out and not given back, by address
    std::multimap<size_t, void*> cached;         // free blocks by size
    size_t cached_bytes = 0;
};

PinnedBlocks& pinned_blocks() {
    static auto* blocks = new PinnedBlocks();  // never destroyed: blocks may be freed during the process's exit
    return *blocks;
}

}  // namespace

mm_status acquire_pinned_block(size_t bytes, void** p) {
    if (bytes > SIZE_MAX - kBlockGranule)
        return mm_fail(MM_ERR_OUT_OF_MEMORY, "out of pinned host memory: %zu bytes asked for", bytes);
    const size_t size = (std::max<size_t>(bytes, 1) + kBlockGranule - 1) / kBlockGranule * kBlockGranule;
    PinnedBlocks& blocks = pinned_blocks();
    {
        std::lock_guard<std::mutex> lock(blocks.mutex);
        const auto found = blocks.cached.find(size);
        if (found != blocks.cached.end()) {
            *p = found->second;
            blocks.cached_bytes -= size;
            blocks.cached.erase(found);
            blocks.size_of[*p] = size;
            return MM_OK;
        }
    }
    MM_TRY(allocate_pinned(size, p));
    std::lock_guard<std::mutex> lock(blocks.mutex);
    blocks.size_of[*p] = size;
    return MM_OK;
}

mm_status release_pinned_block(void* p) {
    PinnedBlocks& blocks = pinned_blocks();
    std::unique_lock<std::mutex> lock(blocks.mutex);
    const auto found = blocks.size_of.find(p);
    if (found == blocks.size_of.end())
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%p is not pinned memory from mm_host_alloc (or was freed already)", p);
    const size_t size = found->second;
    blocks.size_of.erase(found);  // a second free of the same block is refused above
    if (blocks.cached_bytes + size <= kPinnedCacheBytes) {
        blocks.cached.emplace(size, p);
        blocks.cached_bytes += size;
        return MM_OK;
    }
    lock.unlock();
    return mm_check_cuda(cudaFreeHost(p), "cudaFreeHost");
}

size_t cached_pinned_bytes() {
    PinnedBlocks& blocks = pinned_blocks();
    std::lock_guard<std::mutex> lock(blocks.mutex);
    return blocks.cached_bytes;
}

mm_status free_cached_pinned_blocks() {
    std::multimap<size_t, void*> cached;
    {
        PinnedBlocks& blocks = pinned_blocks();
        std::lock_guard<std::mutex> lock(blocks.mutex);
        cached.swap(blocks.cached);
        blocks.cached_bytes = 0;
    }
    // Freed outside the lock, which other threads' mm_host_alloc and mm_host_free take meanwhile. Every block is
    // freed; the status is the last failure's, the one whose message mm_last_error holds.
    mm_status status = MM_OK;
    for (const auto& block : cached) {
        const mm_status st = mm_check_cuda(cudaFreeHost(block.second), "cudaFreeHost");
        if (st != MM_OK) status = st;
    }
    return status;
}
