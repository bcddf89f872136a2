// Markers and the tickets of tracked products (markers.h), and the entry points that order work with markers.
#include "api/markers.h"

#include <deque>
#include <iterator>
#include <mutex>
#include <utility>
#include <vector>

#include "api/device_checks.h"
#include "api/validate.h"

namespace {

// The finished markers, for reuse.
std::mutex free_markers_mutex;
std::vector<Marker*>& free_markers() {
    static auto* markers = new std::vector<Marker*>();
    return *markers;
}

// The markers of tracked calls (mm_gemm_async_tracked), oldest first, with their tickets, and the number of tickets
// given. A ticket is given under the lock, as its marker joins the queue, so the queue is in ticket order.
struct TrackedCalls {
    std::mutex mutex;
    std::deque<std::pair<uint64_t, Marker*>> pending;
    uint64_t given = 0;
};

TrackedCalls& tracked_calls() {
    static auto* calls = new TrackedCalls();  // never destroyed: no CUDA call runs during the process's exit
    return *calls;
}

// Takes back the finished markers at the front of the queue and reports `ticket` and the highest ticket through
// which every tracked call has finished. The caller holds the queue's lock.
mm_status report_finished(TrackedCalls& calls, uint64_t ticket, mm_tracking* tracking) {
    while (!calls.pending.empty()) {
        bool finished = false;
        MM_TRY(mm_event_finished(calls.pending.front().second->event, &finished, "cudaEventQuery"));
        if (!finished) break;
        give_back_marker(calls.pending.front().second);
        calls.pending.pop_front();
    }
    tracking->ticket = ticket;
    tracking->finished_through = calls.pending.empty() ? calls.given : calls.pending.front().first - 1;
    return MM_OK;
}

}  // namespace

mm_status take_marker(int device, Marker** marker) {
    {
        std::lock_guard<std::mutex> lock(free_markers_mutex);
        auto& markers = free_markers();
        for (auto it = markers.rbegin(); it != markers.rend(); ++it) {
            if ((*it)->device == device) {
                *marker = *it;
                markers.erase(std::next(it).base());
                return MM_OK;
            }
        }
    }
    cudaEvent_t event = nullptr;
    MM_TRY(mm_check_cuda(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreate"));
    *marker = new Marker{event, device};
    return MM_OK;
}

void give_back_marker(Marker* marker) {
    std::lock_guard<std::mutex> lock(free_markers_mutex);
    free_markers().push_back(marker);
}

mm_status report_tracked(uint64_t ticket, mm_tracking* tracking) {
    TrackedCalls& calls = tracked_calls();
    std::lock_guard<std::mutex> lock(calls.mutex);
    return report_finished(calls, ticket, tracking);
}

// Only the earlier calls' markers are asked about: the new one has almost surely not finished yet, and asking about
// an unfinished marker costs several times what asking about a finished one does
// (docs/experiments/2026-12-01-small-calls.md); the next call asks.
mm_status track(int device, cudaStream_t stream, mm_tracking* tracking) {
    Marker* marker = nullptr;
    MM_TRY(take_marker(device, &marker));
    const mm_status recorded = mm_check_cuda(cudaEventRecord(marker->event, stream), "cudaEventRecord");
    if (recorded != MM_OK) {
        give_back_marker(marker);
        return recorded;
    }
    TrackedCalls& calls = tracked_calls();
    std::lock_guard<std::mutex> lock(calls.mutex);
    const mm_status status = report_finished(calls, calls.given + 1, tracking);
    calls.pending.emplace_back(++calls.given, marker);  // tracking->finished_through stays below its ticket
    return status;
}

extern "C" {

mm_status mm_stream_wait(int device, void* stream, void* producer) {
    if (stream == producer) return MM_OK;
    void* marker = nullptr;
    MM_TRY(mm_marker_record(device, producer, &marker));
    Marker* recorded = static_cast<Marker*>(marker);
    CurrentDevice current;
    mm_status status = current.enter(device);
    if (status == MM_OK)
        status = mm_check_cuda(cudaStreamWaitEvent(static_cast<cudaStream_t>(stream), recorded->event, 0),
                               "cudaStreamWaitEvent");
    give_back_marker(recorded);  // the wait holds the record made above; a later record does not change it
    return status;
}

mm_status mm_marker_record(int device, void* stream, void** marker) {
    if (marker == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "marker is a null pointer");
    MM_TRY(require_device());
    CurrentDevice current;
    MM_TRY(current.enter(device));
    Marker* taken = nullptr;
    MM_TRY(take_marker(device, &taken));
    const mm_status status =
        mm_check_cuda(cudaEventRecord(taken->event, static_cast<cudaStream_t>(stream)), "cudaEventRecord");
    if (status != MM_OK) {
        give_back_marker(taken);
        return status;
    }
    *marker = taken;
    return MM_OK;
}

mm_status mm_marker_finished(void* marker, int* finished) {
    if (marker == nullptr || finished == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "marker or finished is null");
    Marker* recorded = static_cast<Marker*>(marker);
    bool done = false;
    MM_TRY(mm_event_finished(recorded->event, &done, "cudaEventQuery"));
    *finished = done;
    if (done) give_back_marker(recorded);
    return MM_OK;
}

}  // extern "C"
