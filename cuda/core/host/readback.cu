#include "core/host/readback.h"

#include <vector>

#include "core/host/pinned_buffer.h"

namespace {

// The calling thread's page-locked int and its event on each GPU, made at its first read-back there and kept until
// the thread ends, so that a read-back creates nothing on the call's path (as cuBLAS's handles: kernels/cublas.cu).
class ThreadSlot {
  public:
    ~ThreadSlot() {
        for (cudaEvent_t event : by_device_)
            if (event != nullptr) cudaEventDestroy(event);
    }

    mm_status get(int** host, cudaEvent_t* event) {
        MM_TRY(memory_.reserve(sizeof(int)));
        int device = 0;
        MM_TRY(mm_check_cuda(cudaGetDevice(&device), "cudaGetDevice"));
        if (size_t(device) >= by_device_.size()) by_device_.resize(size_t(device) + 1, nullptr);
        cudaEvent_t& made = by_device_[size_t(device)];
        if (made == nullptr)
            MM_TRY(mm_check_cuda(cudaEventCreateWithFlags(&made, cudaEventDisableTiming), "cudaEventCreate"));
        *host = reinterpret_cast<int*>(memory_.data());
        *event = made;
        return MM_OK;
    }

  private:
    PinnedBuffer memory_;
    std::vector<cudaEvent_t> by_device_;
};

}  // namespace

mm_status IntReadback::start(const int* device_value, cudaStream_t stream) {
    thread_local ThreadSlot slot;
    MM_TRY(slot.get(&host_, &copied_));
    MM_TRY(mm_check_cuda(cudaMemcpyAsync(host_, device_value, sizeof(int), cudaMemcpyDeviceToHost, stream),
                         "cudaMemcpyAsync"));
    MM_TRY(mm_check_cuda(cudaEventRecord(copied_, stream), "cudaEventRecord"));
    pending_ = true;
    return MM_OK;
}

mm_status IntReadback::value(int* out) {
    pending_ = false;
    MM_TRY(mm_check_cuda(cudaEventSynchronize(copied_), "cudaEventSynchronize"));
    *out = *host_;
    return MM_OK;
}

IntReadback::~IntReadback() {
    if (pending_) cudaEventSynchronize(copied_);  // its error, if any, is the failed call's, already reported
}
