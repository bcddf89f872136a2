// The asynchronous entry (mm_gemm_async, mm_gemm_async_tracked) and its checks alone (mm_gemm_check).
//
// A kernel registered as taking every op combination (KernelEntry::all_ops) gets the operands as stored, with
// their op flags in GemmArgs; for any other, op = T operands are rearranged into row-major workspaces first.
// Alpha and beta are applied by a pass over C after the product went to a workspace (both passes in
// core/layout/rearrange.h). The workspaces come from the library's workspace pool on the call's stream, so they
// are stream-ordered: allocated and freed around the kernels that use them, with no synchronisation. The kernels
// are launched through per-thread CUDA graphs (core/launch.h), which cost the host less per launch.
#include "api/device_checks.h"
#include "api/enqueue.h"
#include "api/markers.h"
#include "api/validate.h"
#include "core/device_buffer.h"
#include "core/launch.h"
#include "core/layout/rearrange.h"
#include "matmul.h"

namespace {

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

// Everything the asynchronous entry checks before it enqueues: the arguments, that the stream is not capturing a CUDA
// graph, then (unless C is empty) the pointers, whose GPU goes to *device, and the stream's GPU. A capture is refused
// before anything else touches the stream: the checks below ask the driver about the stream, the tracking reads
// back markers and some kernels read back results, none of which a capture allows, and a forbidden call would
// invalidate the caller's capture.
mm_status check_gemm(const KernelEntry* entry, const mm_gemm_problem& p, cudaStream_t stream, int* device) {
    MM_TRY(validate_gemm(entry, p));
    MM_TRY(stream_not_capturing(stream, entry->name));
    if (p.M == 0 || p.N == 0) return MM_OK;
    MM_TRY(common_device(p, device));
    return stream_on_device(stream, *device);
}

}  // namespace

mm_status enqueue_gemm(const KernelEntry* entry, const mm_gemm_problem& p, cudaStream_t stream, AfterEnqueue after,
                       mm_tracking* tracking) {
    int device = 0;
    MM_TRY(check_gemm(entry, p, stream, &device));
    if (p.M == 0 || p.N == 0) return after == AfterEnqueue::kTrack ? report_tracked(0, tracking) : MM_OK;
    CurrentDevice current;
    MM_TRY(current.enter(device));
    MM_TRY(enqueue_checked(entry, p, stream));
    // While the operands' GPU is current: the per-thread and legacy default streams are streams of the current GPU.
    switch (after) {
        case AfterEnqueue::kReturn: return MM_OK;
        case AfterEnqueue::kWait: return mm_check_cuda(cudaStreamSynchronize(stream), entry->name);
        case AfterEnqueue::kTrack: return track(device, stream, tracking);
    }
    return MM_OK;
}

mm_status enqueue_checked(const KernelEntry* entry, const mm_gemm_problem& p, cudaStream_t stream) {
    const gemm::GraphLaunches through_graphs;  // cheaper launches for the host (core/launch.h)
    if (p.K == 0 || p.alpha == 0.0f)
        return gemm::launch_scale_add(nullptr, 0, 0.0f, p.beta, p.C, p.ldc, p.M, p.N, stream);

    DeviceBuffer a_rows(stream, DeviceBuffer::Pool::kWorkspace), b_rows(stream, DeviceBuffer::Pool::kWorkspace);
    DeviceBuffer product(stream, DeviceBuffer::Pool::kWorkspace);
    const float *a = nullptr, *b = nullptr;
    int64_t la = 0, lb = 0;
    mm_op oa = MM_OP_N, ob = MM_OP_N;
    MM_TRY(operand(entry->all_ops, p.op_a, p.A, p.lda, p.M, p.K, a_rows, "the workspace of op(A)", &a, &la, &oa,
                   stream));
    MM_TRY(operand(entry->all_ops, p.op_b, p.B, p.ldb, p.K, p.N, b_rows, "the workspace of op(B)", &b, &lb, &ob,
                   stream));
    const bool plain = p.alpha == 1.0f && p.beta == 0.0f;
    float* out = p.C;
    int64_t ldo = p.ldc;
    if (!plain) {  // the product goes to a workspace, then C = alpha * product + beta * C
        ldo = padded_ld(p.N);
        MM_TRY(product.allocate(sizeof(float) * size_t(p.M) * size_t(ldo), "the workspace of the product"));
        out = product.data();
    }
    GemmArgs g{int(p.M), int(p.N), int(p.K), a, la, b, lb, out, ldo, oa, ob};
    MM_TRY(launch_kernel(*entry, g, stream));
    if (!plain) MM_TRY(gemm::launch_scale_add(out, ldo, p.alpha, p.beta, p.C, p.ldc, p.M, p.N, stream));
    return MM_OK;
}

extern "C" {

mm_status mm_gemm_async(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                        const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
                        void* stream) {
    const mm_gemm_problem p{op_a, op_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc};
    return enqueue_gemm(registry_find(kernel), p, static_cast<cudaStream_t>(stream), AfterEnqueue::kReturn);
}

mm_status mm_gemm_async_tracked(mm_tracked_gemm* call) {
    if (call == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "call is a null pointer");
    return enqueue_gemm(registry_find(call->kernel), call->problem, static_cast<cudaStream_t>(call->stream),
                        AfterEnqueue::kTrack, &call->tracking);
}

mm_status mm_gemm_check(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                        const float* A, int64_t lda, const float* B, int64_t ldb, float beta, const float* C,
                        int64_t ldc, void* stream) {
    // The checks never write C.
    const mm_gemm_problem p{op_a, op_b, M, N, K, alpha, A, lda, B, ldb, beta, const_cast<float*>(C), ldc};
    int device = 0;
    return check_gemm(registry_find(kernel), p, static_cast<cudaStream_t>(stream), &device);
}

}  // extern "C"
