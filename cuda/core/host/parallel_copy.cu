#include "core/host/parallel_copy.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace {

// Pieces smaller than this are not worth handing to another thread.
constexpr size_t kPieceBytes = size_t(256) << 10;
// Copies into pinned memory stop growing with the thread count at kMaxThreads, and run faster with non-temporal
// stores than with memcpy (docs/experiments/2026-12-01-call-costs.md: its copy_probe.cu measures its own loop of
// 32-byte stores, the 16-byte stores below only through the host path).
constexpr unsigned kMaxThreads = 12;
// Rows at least this long are written with non-temporal stores.
constexpr size_t kStreamingRowBytes = size_t(4) << 10;

// Copies one row. Long rows are written with non-temporal stores, which write memory without first reading each
// line into the cache: what these copies write (staging buffers the copy engine reads, results) is not read back
// by this thread soon. The caller fences (finish_streaming) before anyone else reads the destination.
void copy_row(char* dst, const char* src, size_t bytes) {
#if defined(__SSE2__)
    if (bytes >= kStreamingRowBytes) {
        const size_t head = (16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16;
        std::memcpy(dst, src, head);
        size_t i = head;
        for (; i + 64 <= bytes; i += 64) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
            const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
            const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
        }
        std::memcpy(dst + i, src + i, bytes - i);
        return;
    }
#endif
    std::memcpy(dst, src, bytes);
}

// Orders this thread's non-temporal stores before its later stores (the piece's completion, seen by the caller).
void finish_streaming() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

struct CopyJob {
    char* dst;
    size_t dst_pitch;
    const char* src;
    size_t src_pitch;
    size_t row_bytes, rows;
    int pieces;
    // How piece i is cut: rows [i·rows/pieces, (i+1)·rows/pieces) when there are at least as many rows as pieces,
    // else bytes [i·row_bytes/pieces, (i+1)·row_bytes/pieces) of every row.
    void copy_piece(int i) const {
        if (rows >= size_t(pieces)) {
            const size_t first = rows * i / pieces, last = rows * (i + 1) / pieces;
            if (dst_pitch == row_bytes && src_pitch == row_bytes)
                copy_row(dst + first * row_bytes, src + first * row_bytes, (last - first) * row_bytes);
            else
                for (size_t r = first; r < last; ++r) copy_row(dst + r * dst_pitch, src + r * src_pitch, row_bytes);
        } else {
            const size_t first = row_bytes * i / pieces, last = row_bytes * (i + 1) / pieces;
            for (size_t r = 0; r < rows; ++r)
                copy_row(dst + r * dst_pitch + first, src + r * src_pitch + first, last - first);
        }
        finish_streaming();
    }
    // Pieces handed out, and pieces finished; guarded by the pool's mutex.
    int next = 0, done = 0;
    std::condition_variable finished;
};

// Worker threads that take pieces of the jobs in the queue; started on first use and kept for the process's life
// (never destroyed, so no thread is joined during exit).
class CopyThreads {
  public:
    static CopyThreads& instance() {
        static CopyThreads* threads = new CopyThreads();
        return *threads;
    }
    int count() const { return int(workers_) + 1; }

    void run(CopyJob& job) {
        std::unique_lock<std::mutex> lock(mutex_);
        queue_.push_back(&job);
        wake_.notify_all();
        // The caller copies pieces too, then waits for those other threads took.
        while (job.next < job.pieces) take_piece(job, lock);
        job.finished.wait(lock, [&] { return job.done == job.pieces; });
    }

  private:
    CopyThreads() : workers_(std::clamp(std::thread::hardware_concurrency() * 3 / 4, 1u, kMaxThreads) - 1) {
        for (unsigned i = 0; i < workers_; ++i) std::thread([this] { work(); }).detach();
    }

    // Copies job's next piece with the lock released; the job leaves the queue once every piece is handed out.
    void take_piece(CopyJob& job, std::unique_lock<std::mutex>& lock) {
        const int piece = job.next++;
        if (job.next == job.pieces) queue_.erase(std::find(queue_.begin(), queue_.end(), &job));
        lock.unlock();
        job.copy_piece(piece);
        lock.lock();
        if (++job.done == job.pieces) job.finished.notify_all();
    }

    void work() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return !queue_.empty(); });
            take_piece(*queue_.front(), lock);
        }
    }

    unsigned workers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<CopyJob*> queue_;
};

}  // namespace

void parallel_copy_rows(void* dst, size_t dst_pitch, const void* src, size_t src_pitch, size_t row_bytes,
                        size_t rows) {
    const size_t bytes = row_bytes * rows;
    if (bytes == 0) return;
    CopyThreads& threads = CopyThreads::instance();
    const int pieces = int(std::min<size_t>(size_t(threads.count()), std::max<size_t>(bytes / kPieceBytes, 1)));
    CopyJob job;
    job.dst = static_cast<char*>(dst);
    job.dst_pitch = dst_pitch;
    job.src = static_cast<const char*>(src);
    job.src_pitch = src_pitch;
    job.row_bytes = row_bytes;
    job.rows = rows;
    job.pieces = pieces;
    if (pieces == 1) {
        job.copy_piece(0);
        return;
    }
    threads.run(job);
}
