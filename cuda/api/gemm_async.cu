// The asynchronous entry (mm_gemm_async), its checks alone (mm_gemm_check) and the stream helpers its callers
// order their work with.
//
// A kernel registered as taking every op combination (KernelEntry::all_ops) gets the operands as stored, with
// their op flags in GemmArgs; for any other, op = T operands are rearranged into row-major workspaces first.
// Alpha and beta are applied by a pass over C after the product went to a workspace (both passes in
// core/layout/rearrange.h). The workspaces come from the library's workspace pool on the call's stream, so they
// are stream-ordered: allocated and freed around the kernels that use them, with no synchronisation. The kernels
// are launched through per-thread CUDA graphs (core/launch.h), which cost the host less per launch.
#include <deque>
#include <iterator>
#include <mutex>
#include <utility>
#include <vector>

#include "api/enqueue.h"
#include "api/validate.h"
#include "core/device_buffer.h"
#include "core/launch.h"
#include "core/layout/rearrange.h"
#include "matmul.h"

namespace {

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

mm_status device_of(const char* name, const void* p, int* device) {
    cudaPointerAttributes attributes{};
    const cudaError_t err = cudaPointerGetAttributes(&attributes, p);
    if (err != cudaSuccess) return mm_check_cuda(err, name);
    if (attributes.type != cudaMemoryTypeDevice && attributes.type != cudaMemoryTypeManaged)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s is not device memory (a host pointer?); the _host entry points "
                                                "take host arrays", name);
    *device = attributes.device;
    return MM_OK;
}

// The operands' GPU: A and B (when K > 0) and C must be device memory of one GPU.
mm_status common_device(int64_t K, const float* A, const float* B, const float* C, int* device) {
    MM_TRY(device_of("C", C, device));
    if (K == 0) return MM_OK;
    int device_a = 0, device_b = 0;
    MM_TRY(device_of("A", A, &device_a));
    MM_TRY(device_of("B", B, &device_b));
    if (device_a != *device || device_b != *device)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "the operands lie on different GPUs (A on %d, B on %d, C on %d)",
                       device_a, device_b, *device);
    return MM_OK;
}

// A stream of another GPU cannot run the operands' product (a launch there fails). The default streams (null,
// legacy, per-thread) stand for the current GPU's, and the entry makes the operands' GPU current first.
mm_status stream_on_device(cudaStream_t stream, int device) {
    if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return MM_OK;
    int stream_device = 0;
    MM_TRY(mm_check_cuda(cudaStreamGetDevice(stream, &stream_device), "cudaStreamGetDevice"));
    if (stream_device != device)
        return mm_fail(MM_ERR_INVALID_ARGUMENT,
                       "the stream belongs to GPU %d, the operands lie on GPU %d; pass a stream of GPU %d, or none",
                       stream_device, device, device);
    return MM_OK;
}

// The operand op(X) (rows x cols) as `native` kernels take it: X itself, with its op; for other kernels, an op = T
// operand as its transpose gathered into `workspace`, row-major.
mm_status operand(bool native, mm_op op, const float* X, int64_t ld, int64_t rows, int64_t cols,
                  DeviceBuffer& workspace, const char* what, const float** out, int64_t* ld_out, mm_op* op_out,
                  cudaStream_t stream) {
    *out = X;
    *ld_out = ld;
    *op_out = op;
    if (native || op == MM_OP_N) return MM_OK;
    *op_out = MM_OP_N;
    return gemm::transposed_copy(X, ld, rows, cols, workspace, what, out, ld_out, stream);
}

// A marker: an event of one GPU. Finished markers are kept for reuse (creating and destroying an event costs
// about as much as recording one, and a GPU-array call records one every time); never destroyed.
struct Marker {
    cudaEvent_t event;
    int device;
};

std::mutex free_markers_mutex;
std::vector<Marker*>& free_markers() {
    static auto* markers = new std::vector<Marker*>();
    return *markers;
}

// A marker of `device` (the current GPU): a finished one of that GPU, else a new one.
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

mm_status report_tracked(uint64_t ticket, mm_tracking* tracking) {
    TrackedCalls& calls = tracked_calls();
    std::lock_guard<std::mutex> lock(calls.mutex);
    return report_finished(calls, ticket, tracking);
}

// Records a marker after the work enqueued so far on `stream` of the current GPU `device`, gives it the next
// ticket and fills *tracking. Only the earlier calls' markers are asked about: the new one has almost surely not
// finished yet, and asking about an unfinished marker costs several times what asking about a finished one does
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

// Everything the asynchronous entry checks before it enqueues: the arguments, then (unless C is empty) the
// pointers, whose GPU goes to *device, and the stream's GPU.
mm_status check_gemm(const KernelEntry* entry, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, const float* A,
                     int64_t lda, const float* B, int64_t ldb, const float* C, int64_t ldc, cudaStream_t stream,
                     int* device) {
    MM_TRY(validate_gemm(entry, op_a, op_b, M, N, K, A, lda, B, ldb, C, ldc));
    if (M == 0 || N == 0) return MM_OK;
    MM_TRY(common_device(K, A, B, C, device));
    return stream_on_device(stream, *device);
}

}  // namespace

mm_status enqueue_gemm(const KernelEntry* entry, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                       const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
                       cudaStream_t stream, AfterEnqueue after, mm_tracking* tracking) {
    int device = 0;
    MM_TRY(check_gemm(entry, op_a, op_b, M, N, K, A, lda, B, ldb, C, ldc, stream, &device));
    if (M == 0 || N == 0) return after == AfterEnqueue::kTrack ? report_tracked(0, tracking) : MM_OK;
    CurrentDevice current;
    MM_TRY(current.enter(device));
    MM_TRY(enqueue_checked(entry, op_a, op_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, stream));
    // While the operands' GPU is current: the per-thread and legacy default streams are streams of the current GPU.
    switch (after) {
        case AfterEnqueue::kReturn: return MM_OK;
        case AfterEnqueue::kWait: return mm_check_cuda(cudaStreamSynchronize(stream), entry->name);
        case AfterEnqueue::kTrack: return track(device, stream, tracking);
    }
    return MM_OK;
}

mm_status enqueue_checked(const KernelEntry* entry, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K,
                          float alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C,
                          int64_t ldc, cudaStream_t stream) {
    const gemm::GraphLaunches through_graphs;  // cheaper launches for the host (core/launch.h)
    if (K == 0 || alpha == 0.0f) return gemm::launch_scale_add(nullptr, 0, 0.0f, beta, C, ldc, M, N, stream);

    DeviceBuffer a_rows(stream, DeviceBuffer::Pool::kWorkspace), b_rows(stream, DeviceBuffer::Pool::kWorkspace);
    DeviceBuffer product(stream, DeviceBuffer::Pool::kWorkspace);
    const float *a = nullptr, *b = nullptr;
    int64_t la = 0, lb = 0;
    mm_op oa = MM_OP_N, ob = MM_OP_N;
    MM_TRY(operand(entry->all_ops, op_a, A, lda, M, K, a_rows, "the workspace of op(A)", &a, &la, &oa, stream));
    MM_TRY(operand(entry->all_ops, op_b, B, ldb, K, N, b_rows, "the workspace of op(B)", &b, &lb, &ob, stream));
    const bool plain = alpha == 1.0f && beta == 0.0f;
    float* out = C;
    int64_t ldo = ldc;
    if (!plain) {  // the product goes to a workspace, then C = alpha * product + beta * C
        ldo = padded_ld(N);
        MM_TRY(product.allocate(sizeof(float) * size_t(M) * size_t(ldo), "the workspace of the product"));
        out = product.data();
    }
    GemmArgs g{int(M), int(N), int(K), a, la, b, lb, out, ldo, oa, ob};
    MM_TRY(launch_kernel(*entry, g, stream));
    if (!plain) MM_TRY(gemm::launch_scale_add(out, ldo, alpha, beta, C, ldc, M, N, stream));
    return MM_OK;
}

extern "C" {

mm_status mm_gemm_async(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                        const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
                        void* stream) {
    return enqueue_gemm(registry_find(kernel), op_a, op_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc,
                        static_cast<cudaStream_t>(stream), AfterEnqueue::kReturn);
}

mm_status mm_gemm_async_tracked(mm_tracked_gemm* call) {
    if (call == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "call is a null pointer");
    const mm_gemm_problem& p = call->problem;
    return enqueue_gemm(registry_find(call->kernel), p.op_a, p.op_b, p.M, p.N, p.K, p.alpha, p.A, p.lda, p.B, p.ldb,
                        p.beta, p.C, p.ldc, static_cast<cudaStream_t>(call->stream), AfterEnqueue::kTrack,
                        &call->tracking);
}

mm_status mm_gemm_check(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float /*alpha*/,
                        const float* A, int64_t lda, const float* B, int64_t ldb, float /*beta*/, const float* C,
                        int64_t ldc, void* stream) {
    int device = 0;
    return check_gemm(registry_find(kernel), op_a, op_b, M, N, K, A, lda, B, ldb, C, ldc,
                      static_cast<cudaStream_t>(stream), &device);
}

mm_status mm_pointer_device(const void* p, int* device) {
    if (device == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "device is a null pointer");
    MM_TRY(require_device());
    return device_of("the pointer", p, device);
}

mm_status mm_current_device(int* device) {
    if (device == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "device is a null pointer");
    MM_TRY(require_device());
    return mm_check_cuda(cudaGetDevice(device), "cudaGetDevice");
}

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
