// A value of device memory read on the host without draining the stream: the copy goes into page-locked memory
// with an event behind it, so the caller can enqueue further work before it waits, and the GPU runs that work while
// the host waits for the copy alone (a cudaMemcpy into pageable memory, or a stream synchronisation, would leave the
// GPU idle from the copy until the host's next launch).
#pragma once

#include "core/status.h"

// One int per host thread at a time: start() enqueues the copy of *device_value on `stream` (a stream of the current
// GPU), value() waits for that copy (not for what was enqueued after it) and gives the int. The page-locked int and
// the event are the thread's own, kept between calls; so a read-back that is started and then left (a call that
// fails between the two) waits for its copy when it goes out of scope, before the thread's next read-back can reuse
// the int.
class IntReadback {
  public:
    IntReadback() = default;
    IntReadback(const IntReadback&) = delete;
    IntReadback& operator=(const IntReadback&) = delete;
    ~IntReadback();

    mm_status start(const int* device_value, cudaStream_t stream);
    mm_status value(int* out);

  private:
    int* host_ = nullptr;           // the thread's page-locked int
    cudaEvent_t copied_ = nullptr;  // the thread's event on the current GPU
    bool pending_ = false;          // a copy started that value() has not waited for
};
