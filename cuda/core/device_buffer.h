// A stream-ordered device allocation that is freed on every exit path, and reports out-of-memory with the
// bytes asked for and the bytes free.
#pragma once

#include <cstddef>

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
