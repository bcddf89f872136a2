// Launches of one product that may run beside each other (host only): a second stream forked from the caller's and
// joined back to it, so that independent parts of a product (best's ragged edges beside its bulk) overlap on the
// GPU instead of queueing one behind the other. To the caller's stream the product stays one ordered piece of work:
// the side starts after everything enqueued on the caller's stream before the fork, and nothing enqueued on the
// caller's stream after the join starts before the side's work is done.
#pragma once

#include "core/status.h"

namespace gemm {

// A side stream of the current device, taken from a pool while the object lives (so concurrent products on other
// host threads get their own) and joined back to the caller's stream by the destructor if join() was not reached.
class Beside {
  public:
    // Forks: the side waits for everything enqueued on `stream` so far. Check status() before using side().
    explicit Beside(cudaStream_t stream);
    ~Beside();
    Beside(const Beside&) = delete;
    Beside& operator=(const Beside&) = delete;

    mm_status status() const { return status_; }
    cudaStream_t side() const;
    // The caller's stream waits for everything enqueued on the side so far.
    mm_status join();

    struct Slot;  // a side stream and its fork and join events (beside.cu)

  private:
    cudaStream_t stream_;
    Slot* slot_ = nullptr;
    int device_ = 0;
    bool joined_ = false;
    mm_status status_ = MM_OK;
};

}  // namespace gemm
