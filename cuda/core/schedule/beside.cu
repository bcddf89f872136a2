// A pool of side streams per device (beside.h). A slot is a non-blocking stream with two events; it is reused once
// its product has joined, which needs no wait on the host: the caller's stream has already been told to wait for
// what the side had enqueued, and the next fork records anew.
#include "core/schedule/beside.h"

#include <mutex>
#include <unordered_map>
#include <vector>

namespace gemm {

struct Beside::Slot {
    cudaStream_t stream = nullptr;
    cudaEvent_t fork = nullptr, join = nullptr;
};

namespace {

std::mutex pool_mutex;
std::unordered_map<int, std::vector<Beside::Slot*>> free_slots;  // by device; slots live as long as the process

mm_status take_slot(int device, Beside::Slot** slot) {
    {
        std::lock_guard<std::mutex> lock(pool_mutex);
        std::vector<Beside::Slot*>& free = free_slots[device];
        if (!free.empty()) {
            *slot = free.back();
            free.pop_back();
            return MM_OK;
        }
    }
    auto* made = new Beside::Slot;
    mm_status status =
        mm_check_cuda(cudaStreamCreateWithFlags(&made->stream, cudaStreamNonBlocking), "cudaStreamCreate");
    if (status == MM_OK)
        status = mm_check_cuda(cudaEventCreateWithFlags(&made->fork, cudaEventDisableTiming), "cudaEventCreate");
    if (status == MM_OK)
        status = mm_check_cuda(cudaEventCreateWithFlags(&made->join, cudaEventDisableTiming), "cudaEventCreate");
    if (status != MM_OK) {
        if (made->join) cudaEventDestroy(made->join);
        if (made->fork) cudaEventDestroy(made->fork);
        if (made->stream) cudaStreamDestroy(made->stream);
        delete made;
        return status;
    }
    *slot = made;
    return MM_OK;
}

}  // namespace

Beside::Beside(cudaStream_t stream) : stream_(stream) {
    status_ = mm_check_cuda(cudaGetDevice(&device_), "cudaGetDevice");
    if (status_ == MM_OK) status_ = take_slot(device_, &slot_);
    if (status_ == MM_OK) status_ = mm_check_cuda(cudaEventRecord(slot_->fork, stream_), "cudaEventRecord");
    if (status_ == MM_OK)
        status_ = mm_check_cuda(cudaStreamWaitEvent(slot_->stream, slot_->fork, 0), "cudaStreamWaitEvent");
    joined_ = status_ != MM_OK;  // a failed fork enqueued nothing on the side to wait for
}

cudaStream_t Beside::side() const { return slot_->stream; }

mm_status Beside::join() {
    joined_ = true;
    MM_TRY(mm_check_cuda(cudaEventRecord(slot_->join, slot_->stream), "cudaEventRecord"));
    return mm_check_cuda(cudaStreamWaitEvent(stream_, slot_->join, 0), "cudaStreamWaitEvent");
}

Beside::~Beside() {
    if (!joined_) {  // an early return between fork and join: order the caller's stream after the side all the same
        if (cudaEventRecord(slot_->join, slot_->stream) != cudaSuccess ||
            cudaStreamWaitEvent(stream_, slot_->join, 0) != cudaSuccess)
            cudaGetLastError();  // the error being returned is the one that ended the product early
    }
    if (slot_ == nullptr) return;
    std::lock_guard<std::mutex> lock(pool_mutex);
    free_slots[device_].push_back(slot_);
}

}  // namespace gemm
