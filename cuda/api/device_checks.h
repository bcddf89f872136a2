// The GPU a call's operands and stream belong to, and the guard that makes it current for the call (host).
#pragma once

#include <cuda_runtime.h>

#include "core/status.h"
#include "matmul.h"

// Makes `device` current for the guard's life and restores the caller's device afterwards.
class CurrentDevice {
  public:
    mm_status enter(int device) {
        MM_TRY(mm_check_cuda(cudaGetDevice(&previous_), "cudaGetDevice"));
        if (device == previous_) return MM_OK;
        MM_TRY(mm_check_cuda(cudaSetDevice(device), "cudaSetDevice"));
        switched_ = true;
        return MM_OK;
    }
    ~CurrentDevice() {
        if (switched_) cudaSetDevice(previous_);
    }

  private:
    int previous_ = 0;
    bool switched_ = false;
};

// MM_OK unless `stream` is capturing a CUDA graph (MM_ERR_UNAVAILABLE, naming `kernel`), or is the legacy default
// stream while another stream captures in global mode (a launch there would invalidate that capture); a failed
// query reports CUDA's message. It asks nothing else of the driver, which a capture would forbid.
mm_status stream_not_capturing(cudaStream_t stream, const char* kernel);

// The GPU that holds device memory at p (MM_ERR_INVALID_ARGUMENT, naming `name`, for host memory).
mm_status device_of(const char* name, const void* p, int* device);

// The operands' GPU: A and B (when K > 0) and C must be device memory of one GPU.
mm_status common_device(const mm_gemm_problem& p, int* device);

// MM_OK when `stream` can run work on `device`: a default stream (null, legacy, per-thread), which stands for the
// current GPU's, or a stream of that GPU.
mm_status stream_on_device(cudaStream_t stream, int device);
