// A stream-ordered device allocation that is freed on every exit path, and reports out-of-memory with the
// bytes asked for and the bytes free.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/status.h"

class DeviceBuffer {
  public:
    // Where the memory comes from: two pools of the library's own, each keeping up to its retain threshold of freed
    // memory between synchronisations, so that calls in a row do not map their memory anew each time (what that
    // costs: docs/experiments/2026-11-30-streamk-tail3.md). kStaging: operands and results of a call (the host
    // path's device copies, benchmark inputs). kWorkspace: kernel workspaces (split-K slices, stream-K partials,
    // rearranged operands), allocated and freed around every launch; it holds wgmma_3xtf32's split copies of A and B,
    // 1 GiB and their flags at 8192^3, so it keeps 2 GiB.
    enum class Pool { kStaging, kWorkspace };
    static constexpr size_t kStagingRetainBytes = size_t(1) << 30;
    static constexpr size_t kWorkspaceRetainBytes = size_t(2) << 30;

    explicit DeviceBuffer(cudaStream_t stream, Pool pool = Pool::kStaging) : stream_(stream), pool_(pool) {}
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() {
        if (data_ != nullptr) cudaFreeAsync(data_, stream_);
    }

    mm_status allocate(size_t bytes, const char* what);
    float* data() const { return static_cast<float*>(data_); }

  private:
    cudaStream_t stream_;
    Pool pool_;
    void* data_ = nullptr;
};

// The device memory the library's pools keep and no allocation uses, over the pools created so far: what each has
// reserved from the driver less what its allocations use (a snapshot: other threads may allocate meanwhile).
mm_status device_pools_idle_bytes(uint64_t* bytes);
// Gives every pool's unused memory back to the driver (cudaMemPoolTrimTo 0). Waits first for all the work on each
// GPU that has pools (cudaDeviceSynchronize): a DeviceBuffer is freed stream-ordered, often after its call's last
// wait, and its memory is reusable, hence releasable, only once the host has seen the stream pass the free.
// Allocations in use keep their memory.
mm_status trim_device_pools();
