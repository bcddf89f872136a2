#include "api/host_staging.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "api/device_checks.h"
#include "core/host/parallel_copy.h"

namespace {

// Staging sets that no call holds, of any GPU, kept until mm_release_memory destroys them (destroy_idle). The list
// is never destroyed, so that no CUDA call runs during the process's exit.
std::mutex free_sets_mutex;
std::vector<std::unique_ptr<HostStaging>>& free_sets() {
    static auto* sets = new std::vector<std::unique_ptr<HostStaging>>();
    return *sets;
}

// The first row of piece i of n of a block of `rows` rows (piece i ends where piece i + 1 starts).
int64_t piece_start(int64_t rows, int i, int n) { return rows * i / n; }

mm_status copy_2d(void* dst, int64_t dst_ld, const void* src, int64_t src_ld, int64_t rows, int64_t cols,
                  cudaMemcpyKind kind, cudaStream_t stream, const char* what) {
    return mm_check_cuda(cudaMemcpy2DAsync(dst, size_t(dst_ld) * sizeof(float), src, size_t(src_ld) * sizeof(float),
                                           size_t(cols) * sizeof(float), size_t(rows), kind, stream),
                         what);
}

// How many pieces a block's copy goes in: one per kPieces-th of a slot, at least one, at most one per row.
int pieces_of(const HostBlock& block) {
    const size_t bytes = size_t(block.rows * block.cols) * sizeof(float);
    const size_t piece = HostStaging::kSlotBytes / HostStaging::kPieces;
    return int(std::clamp<int64_t>(int64_t((bytes + piece - 1) / piece), 1, std::min<int64_t>(block.rows, HostStaging::kPieces)));
}

}  // namespace

mm_status HostStaging::acquire(std::unique_ptr<HostStaging>* staging) {
    int device = 0;
    MM_TRY(mm_check_cuda(cudaGetDevice(&device), "cudaGetDevice"));
    {
        std::lock_guard<std::mutex> lock(free_sets_mutex);
        auto& sets = free_sets();
        const auto found = std::find_if(sets.begin(), sets.end(), [&](const auto& s) { return s->device_ == device; });
        if (found != sets.end()) {
            *staging = std::move(*found);
            sets.erase(found);
            return MM_OK;
        }
    }
    auto created = std::make_unique<HostStaging>();
    MM_TRY(created->create(device));
    *staging = std::move(created);
    return MM_OK;
}

void HostStaging::release(std::unique_ptr<HostStaging> staging) {
    if (staging->synchronize() != MM_OK) return;  // a set whose streams failed is not reused
    std::lock_guard<std::mutex> lock(free_sets_mutex);
    free_sets().push_back(std::move(staging));
}

mm_status HostStaging::create(int device) {
    device_ = device;
    for (cudaStream_t* s : {&up_, &compute_, &down_})
        MM_TRY(mm_check_cuda(cudaStreamCreateWithFlags(s, cudaStreamNonBlocking), "cudaStreamCreate"));
    MM_TRY(mm_check_cuda(cudaEventCreateWithFlags(&ordering_, cudaEventDisableTiming), "cudaEventCreate"));
    for (UpSlot& slot : up_slots_)
        MM_TRY(mm_check_cuda(cudaEventCreateWithFlags(&slot.free, cudaEventDisableTiming), "cudaEventCreate"));
    for (DownSlot& slot : down_slots_)
        for (cudaEvent_t& e : slot.pieces_done)
            MM_TRY(mm_check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate"));
    return MM_OK;
}

cudaError_t HostStaging::destroy() {
    cudaError_t first = cudaSuccess;
    const auto keep = [&first](cudaError_t err) {
        if (first == cudaSuccess) first = err;
    };
    const auto destroy_event = [&keep](cudaEvent_t& e) {
        if (e != nullptr) keep(cudaEventDestroy(e));
        e = nullptr;
    };
    for (UpSlot& slot : up_slots_) {
        destroy_event(slot.free);
        keep(slot.memory.deallocate());
    }
    for (DownSlot& slot : down_slots_) {
        for (cudaEvent_t& e : slot.pieces_done) destroy_event(e);
        keep(slot.memory.deallocate());
    }
    destroy_event(ordering_);
    for (cudaStream_t* s : {&up_, &compute_, &down_}) {
        if (*s != nullptr) keep(cudaStreamDestroy(*s));
        *s = nullptr;
    }
    return first;
}

uint64_t HostStaging::idle_pinned_bytes() {
    std::lock_guard<std::mutex> lock(free_sets_mutex);
    uint64_t bytes = 0;
    for (const auto& set : free_sets()) {
        for (const UpSlot& slot : set->up_slots_) bytes += slot.memory.bytes();
        for (const DownSlot& slot : set->down_slots_) bytes += slot.memory.bytes();
    }
    return bytes;
}

mm_status HostStaging::destroy_idle() {
    std::vector<std::unique_ptr<HostStaging>> sets;
    {
        std::lock_guard<std::mutex> lock(free_sets_mutex);
        sets.swap(free_sets());
    }
    // Destroyed outside the lock, which other threads' calls take meanwhile, each on its own GPU. Every set is
    // destroyed; the status is the last failure's, the one whose message mm_last_error holds.
    mm_status status = MM_OK;
    for (const auto& set : sets) {
        CurrentDevice device;
        mm_status st = device.enter(set->device_);
        if (st == MM_OK) st = mm_check_cuda(set->destroy(), "destroying a staging set");
        if (st != MM_OK) status = st;
    }
    return status;
}

mm_status HostStaging::order(cudaStream_t producer, cudaStream_t consumer) {
    if (producer == consumer) return MM_OK;
    MM_TRY(mm_check_cuda(cudaEventRecord(ordering_, producer), "cudaEventRecord"));
    return mm_check_cuda(cudaStreamWaitEvent(consumer, ordering_, 0), "cudaStreamWaitEvent");
}

mm_status HostStaging::take_up_slot(size_t bytes, UpSlot** taken) {
    UpSlot& slot = up_slots_[next_up_];
    next_up_ = (next_up_ + 1) % kUpSlots;
    MM_TRY(mm_check_cuda(cudaEventSynchronize(slot.free), "waiting for a staging slot"));
    MM_TRY(slot.memory.reserve(bytes));
    *taken = &slot;
    return MM_OK;
}

mm_status HostStaging::send_up(UpSlot& slot, void* device, size_t bytes) {
    MM_TRY(mm_check_cuda(cudaMemcpyAsync(device, slot.memory.data(), bytes, cudaMemcpyHostToDevice, up()),
                         "copying to the device"));
    return mm_check_cuda(cudaEventRecord(slot.free, up()), "cudaEventRecord");
}

mm_status HostStaging::push_up(const HostBlock& block, DeviceBlock device) {
    if (block.pinned)
        return copy_2d(device.data, device.ld, block.data, block.ld, block.rows, block.cols, cudaMemcpyHostToDevice,
                       up(), "copying to the device");
    UpSlot* slot = nullptr;
    MM_TRY(take_up_slot(size_t(block.rows * block.cols) * sizeof(float), &slot));
    float* const staging = slot->memory.data();
    const int pieces = pieces_of(block);
    for (int i = 0; i < pieces; ++i) {
        const int64_t first = piece_start(block.rows, i, pieces), rows = piece_start(block.rows, i + 1, pieces) - first;
        float* staged = staging + first * block.cols;
        parallel_copy_rows(staged, size_t(block.cols) * sizeof(float), block.data + first * block.ld,
                           size_t(block.ld) * sizeof(float), size_t(block.cols) * sizeof(float), size_t(rows));
        MM_TRY(copy_2d(device.data + first * device.ld, device.ld, staged, block.cols, rows, block.cols,
                       cudaMemcpyHostToDevice, up(), "copying to the device"));
    }
    return mm_check_cuda(cudaEventRecord(slot->free, up()), "cudaEventRecord");
}

mm_status HostStaging::push_down(DeviceBlock device, const HostBlock& block) {
    if (block.pinned)
        return copy_2d(block.data, block.ld, device.data, device.ld, block.rows, block.cols, cudaMemcpyDeviceToHost,
                       down(), "copying to the host");
    if (down_pushed_ - down_drained_ == kDownSlots) MM_TRY(drain_oldest());
    DownSlot& slot = down_slots_[down_pushed_ % kDownSlots];
    MM_TRY(slot.memory.reserve(size_t(block.rows * block.cols) * sizeof(float)));
    slot.target = block;
    slot.pieces = pieces_of(block);
    for (int i = 0; i < slot.pieces; ++i) {
        const int64_t first = piece_start(block.rows, i, slot.pieces);
        const int64_t rows = piece_start(block.rows, i + 1, slot.pieces) - first;
        MM_TRY(copy_2d(slot.memory.data() + first * block.cols, block.cols, device.data + first * device.ld, device.ld,
                       rows, block.cols, cudaMemcpyDeviceToHost, down(), "copying to the host"));
        MM_TRY(mm_check_cuda(cudaEventRecord(slot.pieces_done[i], down()), "cudaEventRecord"));
    }
    ++down_pushed_;
    return MM_OK;
}

// Waits for the oldest undrained block piece by piece, copying each piece out as soon as it has arrived.
mm_status HostStaging::drain_oldest() {
    DownSlot& slot = down_slots_[down_drained_ % kDownSlots];
    const HostBlock& block = slot.target;
    for (int i = 0; i < slot.pieces; ++i) {
        MM_TRY(mm_check_cuda(cudaEventSynchronize(slot.pieces_done[i]), "copying to the host"));
        const int64_t first = piece_start(block.rows, i, slot.pieces);
        const int64_t rows = piece_start(block.rows, i + 1, slot.pieces) - first;
        parallel_copy_rows(block.data + first * block.ld, size_t(block.ld) * sizeof(float),
                           slot.memory.data() + first * block.cols, size_t(block.cols) * sizeof(float),
                           size_t(block.cols) * sizeof(float), size_t(rows));
    }
    ++down_drained_;
    return MM_OK;
}

mm_status HostStaging::drain_finished() {
    while (down_drained_ < down_pushed_) {
        const DownSlot& slot = down_slots_[down_drained_ % kDownSlots];
        bool arrived = false;
        MM_TRY(mm_event_finished(slot.pieces_done[slot.pieces - 1], &arrived, "copying to the host"));
        if (!arrived) return MM_OK;
        MM_TRY(drain_oldest());
    }
    return MM_OK;
}

mm_status HostStaging::drain_all() {
    while (down_drained_ < down_pushed_) MM_TRY(drain_oldest());
    return MM_OK;
}

mm_status HostStaging::synchronize() {
    if (idle_) return MM_OK;
    mm_status status = MM_OK;
    for (cudaStream_t s : {up_, compute_, down_}) {
        if (single_ && s != compute_) continue;
        const mm_status st = mm_check_cuda(cudaStreamSynchronize(s), "synchronizing the host path's streams");
        if (status == MM_OK) status = st;
    }
    down_drained_ = down_pushed_;  // blocks not drained by now belong to a failed call
    idle_ = status == MM_OK;
    return status;
}
