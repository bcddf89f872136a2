// What the host path (gemm_host.cu) streams through: a caller's streams and its rings of pinned staging slots,
// reused call after call.
//
// Blocks of host matrices go up through the up ring: the calling thread and the copy threads fill a slot (waiting
// first for the slot's previous copy to the GPU to finish), and the copy engine takes it to the GPU in pieces, so
// that filling the next piece overlaps copying the last. Blocks of results come down through the down ring and
// are drained into host memory in the order they were enqueued: the finished ones whenever the caller asks, the
// oldest when a slot is needed, all at the end. Pinned host memory skips the rings: the copy engine reads and
// writes it where it is.
#pragma once

#include <cstdint>
#include <memory>

#include "core/host/pinned_buffer.h"

// A block of a row-major host matrix: rows x cols floats, rows ld floats apart.
struct HostBlock {
    float* data;
    int64_t rows, cols, ld;
    bool pinned;
};

// The device side of a block: where its first element goes or comes from, and the device matrix's ld.
struct DeviceBlock {
    float* data;
    int64_t ld;
};

class HostStaging {
  public:
    static constexpr size_t kSlotBytes = size_t(16) << 20;  // a block is at most this large
    static constexpr int kUpSlots = 2, kDownSlots = 3;
    static constexpr int kPieces = 4;  // a slot's copy to or from the GPU goes in this many pieces
    // Smaller host blocks are staged without asking whether they are pinned (the question costs more than the copy).
    static constexpr size_t kPinnedQueryBytes = size_t(1) << 20;

    // A staging set of the current GPU: one that an earlier call returned, else a new one.
    static mm_status acquire(std::unique_ptr<HostStaging>* staging);
    // Waits for everything the set has enqueued, then keeps it for the next call.
    static void release(std::unique_ptr<HostStaging> staging);
    // The bytes of the pinned slots of the sets kept for later calls, and destroying those sets (their streams,
    // events and slots): release() synchronised them, so no copy uses them. Sets that calls hold are not touched.
    static uint64_t idle_pinned_bytes();
    static mm_status destroy_idle();

    ~HostStaging() { destroy(); }

    // The streams: blocks go up on up(), products on compute(), results come down on down(). One stream serves all
    // three when the work is a single step (no overlap to gain, no cross-stream waits to pay).
    cudaStream_t up() const { return single_ ? compute_ : up_; }
    cudaStream_t compute() const { return compute_; }
    cudaStream_t down() const { return single_ ? compute_ : down_; }
    // Starts a call's work: one stream or three, and synchronize() has work to wait for.
    void begin(bool single_stream) {
        single_ = single_stream;
        idle_ = false;
    }
    // Makes `consumer` wait for the work enqueued so far on `producer` (nothing when they are one stream).
    mm_status order(cudaStream_t producer, cudaStream_t consumer);

    // Enqueues the copy of `block` to `device` (elements at the same offsets); returns once the block's host memory
    // may change (pinned memory: once the copy is done, which the caller waits for through the streams).
    mm_status push_up(const HostBlock& block, DeviceBlock device);
    // Enqueues the copy of `device` into `block`, which drain_*() complete.
    mm_status push_down(DeviceBlock device, const HostBlock& block);
    // A slot of the up ring: pinned memory, and an event after the last copy that read it.
    struct UpSlot {
        PinnedBuffer memory;
        cudaEvent_t free = nullptr;
    };
    // The next up slot with room for `bytes`, once its last copy to the GPU has finished, for a caller that fills it
    // as one image of device memory; send_up() then copies the image's first `bytes` to `device`.
    mm_status take_up_slot(size_t bytes, UpSlot** slot);
    mm_status send_up(UpSlot& slot, void* device, size_t bytes);
    mm_status drain_finished();
    mm_status drain_all();
    // Waits for the streams of the call: what any caller must do before its blocks' memory goes away (returns at
    // once when nothing was enqueued since the last wait).
    mm_status synchronize();

  private:
    // A slot of the down ring: pinned memory, an event after each piece of the copy into it, where it drains to.
    struct DownSlot {
        PinnedBuffer memory;
        cudaEvent_t pieces_done[kPieces] = {};
        HostBlock target{};
        int pieces = 0;
    };

    mm_status create(int device);
    // Destroys the events and streams and frees the slots; returns the first CUDA error without recording it (the
    // destructor runs on failure paths, whose message the thread's last error holds).
    cudaError_t destroy();
    mm_status drain_oldest();

    int device_ = 0;
    bool single_ = false;
    bool idle_ = true;
    cudaStream_t up_ = nullptr, compute_ = nullptr, down_ = nullptr;
    cudaEvent_t ordering_ = nullptr;
    UpSlot up_slots_[kUpSlots];
    DownSlot down_slots_[kDownSlots];
    int next_up_ = 0;
    int64_t down_pushed_ = 0, down_drained_ = 0;  // down ring: slot i % kDownSlots holds block i
};
