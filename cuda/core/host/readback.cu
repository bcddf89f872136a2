#include "core/host/readback.h"

namespace {

// The calling thread's page-locked int, allocated at its first read-back and freed when the thread ends.
mm_status thread_slot(int** slot) {
    thread_local PinnedBuffer memory;
    MM_TRY(memory.reserve(sizeof(int)));
    *slot = reinterpret_cast<int*>(memory.data());
    return MM_OK;
}

}  // namespace

IntReadback::~IntReadback() {
    if (copied_ != nullptr) cudaEventDestroy(copied_);
}

mm_status IntReadback::start(const int* device_value, cudaStream_t stream) {
    MM_TRY(thread_slot(&host_));
    if (copied_ == nullptr)
        MM_TRY(mm_check_cuda(cudaEventCreateWithFlags(&copied_, cudaEventDisableTiming), "cudaEventCreate"));
    MM_TRY(mm_check_cuda(cudaMemcpyAsync(host_, device_value, sizeof(int), cudaMemcpyDeviceToHost, stream),
                         "cudaMemcpyAsync"));
    return mm_check_cuda(cudaEventRecord(copied_, stream), "cudaEventRecord");
}

mm_status IntReadback::value(int* out) {
    MM_TRY(mm_check_cuda(cudaEventSynchronize(copied_), "cudaEventSynchronize"));
    *out = *host_;
    return MM_OK;
}
