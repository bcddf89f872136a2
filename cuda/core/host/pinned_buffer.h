// Page-locked (pinned) host memory that the copy engines read and write at the host link's full speed; ordinary
// (pageable) memory goes through the driver's bounce buffers at a fraction of it.
#pragma once

#include <cstddef>

#include "core/status.h"

// A pinned buffer that grows to the largest size asked of it and keeps its memory for reuse.
class PinnedBuffer {
  public:
    PinnedBuffer() = default;
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    ~PinnedBuffer() { deallocate(); }

    // At least `bytes` bytes; the contents are not kept when it grows. The caller makes sure that no copy still
    // uses the buffer.
    mm_status reserve(size_t bytes);
    float* data() const { return static_cast<float*>(data_); }
    size_t bytes() const { return bytes_; }
    // Frees the memory now (the caller makes sure that no copy still uses it; reserve() allocates anew) and returns
    // cudaFreeHost's error without recording it, for the destructors of its owners too.
    cudaError_t deallocate();

  private:
    void* data_ = nullptr;
    size_t bytes_ = 0;
};

// Pinned blocks for arrays (mm_host_alloc / mm_host_free): a freed block is kept, up to kPinnedCacheBytes in all, and
// handed out again for a request of its size class, since pinning memory is slow: the driver locks and maps every
// page (docs/experiments/2026-12-01-host-streaming.md).
constexpr size_t kPinnedCacheBytes = size_t(2) << 30;
mm_status acquire_pinned_block(size_t bytes, void** p);
// MM_ERR_INVALID_ARGUMENT for a pointer that acquire_pinned_block did not give, or that was given back already.
mm_status release_pinned_block(void* p);
// The bytes of the freed blocks kept for reuse, and freeing them all (blocks handed out are not touched).
size_t cached_pinned_bytes();
mm_status free_cached_pinned_blocks();

// True when the first and the last byte of [p, p + bytes) are pinned host memory, as every byte between them is
// when the range lies in one allocation (any view of one array), so a copy engine can use it directly.
bool is_pinned(const void* p, size_t bytes);
