// Markers (an event after the work enqueued so far on a stream) and the tickets of tracked products (host).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "core/status.h"
#include "matmul.h"

// A marker: an event of one GPU. Finished markers are kept for reuse (creating and destroying an event costs about
// as much as recording one, and a GPU-array call records one every time); never destroyed.
struct Marker {
    cudaEvent_t event;
    int device;
};

// A marker of `device` (the current GPU): a finished one of that GPU, else a new one.
mm_status take_marker(int device, Marker** marker);

// Gives a marker back for reuse: its work has finished, or nothing will ask about it again.
void give_back_marker(Marker* marker);

// Records a marker after the work enqueued so far on `stream` of the current GPU `device`, gives it the next ticket
// and fills *tracking (mm_gemm_async_tracked's report).
mm_status track(int device, cudaStream_t stream, mm_tracking* tracking);

// Fills *tracking for a call that enqueued nothing (ticket 0 when `ticket` is 0).
mm_status report_tracked(uint64_t ticket, mm_tracking* tracking);
