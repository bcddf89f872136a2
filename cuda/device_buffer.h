// A stream-ordered device allocation that is freed on every exit path, and reports out-of-memory with the
// bytes asked for and the bytes free.
#pragma once

#include <cstddef>

#include "status.h"

class DeviceBuffer {
  public:
    explicit DeviceBuffer(cudaStream_t stream) : stream_(stream) {}
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() {
        if (data_ != nullptr) cudaFreeAsync(data_, stream_);
    }

    mm_status allocate(size_t bytes, const char* what);
    float* data() const { return static_cast<float*>(data_); }

  private:
    cudaStream_t stream_;
    void* data_ = nullptr;
};
