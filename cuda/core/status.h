// Status codes and the thread-local last-error message shared by the C API and the launchers (host only).
#pragma once

#include <cuda_runtime.h>

#include "matmul.h"

// Records a formatted message as this thread's last error and returns `status`.
mm_status mm_fail(mm_status status, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Maps a CUDA error to a status (MM_ERR_OUT_OF_MEMORY, MM_ERR_NO_DEVICE or MM_ERR_CUDA) and records
// "<what>: <CUDA's message> (<CUDA's error name>)"; returns MM_OK for cudaSuccess.
mm_status mm_check_cuda(cudaError_t err, const char* what);

// Checks the launch that was just enqueued (cudaGetLastError) and names the kernel in the message.
inline mm_status mm_check_launch(const char* kernel) { return mm_check_cuda(cudaGetLastError(), kernel); }

// Returns from the calling function with the status of `expr` unless it is MM_OK.
#define MM_TRY(expr)                          \
    do {                                      \
        mm_status status_ = (expr);           \
        if (status_ != MM_OK) return status_; \
    } while (0)

// Whether the work recorded before `event` has finished, asked without waiting, in *finished (meaningful when MM_OK
// is returned); a failed query is recorded as mm_check_cuda records it. cudaErrorNotReady is the answer "not yet",
// not an error, and is cleared.
inline mm_status mm_event_finished(cudaEvent_t event, bool* finished, const char* what) {
    const cudaError_t err = cudaEventQuery(event);
    *finished = err != cudaErrorNotReady;
    if (*finished) return mm_check_cuda(err, what);
    cudaGetLastError();
    return MM_OK;
}
