// CPU copy rates from pageable into pinned memory on the GPU machine: by thread count, with memcpy and with
// non-temporal (streaming) stores, alone and while the copy engine streams another pinned buffer to the GPU.
//   nvcc -O2 -std=c++17 -Xcompiler -mavx2 copy_probe.cu -o copy_probe
// Build from this folder with the line above; run: ./copy_probe (no arguments).
// Prints GiB/s, medians of 7 rounds of a 64 MiB copy split evenly over the threads.
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

using Clock = std::chrono::steady_clock;

// 32-byte aligned destination and source, bytes a multiple of 128.
static void stream_copy(char* dst, const char* src, size_t bytes) {
    for (size_t i = 0; i < bytes; i += 128) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 32));
        const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 64));
        const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 96));
        _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), a);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 32), b);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 64), c);
        _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 96), d);
    }
    _mm_sfence();
}

static double gib_per_s(char* dst, const char* src, size_t bytes, int threads, bool streaming) {
    std::vector<double> t;
    for (int r = 0; r < 8; ++r) {
        const auto s = Clock::now();
        std::vector<std::thread> pool;
        const size_t piece = bytes / threads / 4096 * 4096;  // aligned pieces; the last one takes the rest
        for (int i = 0; i < threads; ++i)
            pool.emplace_back([=] {
                const size_t n = i + 1 == threads ? bytes - i * piece : piece;
                if (streaming) stream_copy(dst + i * piece, src + i * piece, n);
                else std::memcpy(dst + i * piece, src + i * piece, n);
            });
        for (auto& th : pool) th.join();
        if (r > 0) t.push_back(std::chrono::duration<double>(Clock::now() - s).count());
    }
    std::sort(t.begin(), t.end());
    return double(bytes) / t[t.size() / 2] / double(1ull << 30);
}

int main() {
    const size_t bytes = size_t(64) << 20;
    std::vector<char> pageable(bytes + 64, 1);
    char* src = pageable.data() + (32 - reinterpret_cast<uintptr_t>(pageable.data()) % 32) % 32;
    char *pinned = nullptr, *pinned2 = nullptr, *device = nullptr;
    cudaMallocHost(&pinned, bytes);
    cudaMallocHost(&pinned2, bytes);
    cudaMalloc(&device, bytes);
    std::memset(pinned, 0, bytes);
    std::memset(pinned2, 0, bytes);
    printf("threads   memcpy  streaming   (GiB/s, 64 MiB pageable -> pinned)\n");
    for (int threads : {1, 4, 8, 12, 16})
        printf("%7d %8.1f %10.1f\n", threads, gib_per_s(pinned, src, bytes, threads, false),
               gib_per_s(pinned, src, bytes, threads, true));
    std::atomic<bool> stop{false};
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    std::thread dma([&] {
        while (!stop) {
            cudaMemcpyAsync(device, pinned2, bytes, cudaMemcpyHostToDevice, side);
            cudaStreamSynchronize(side);
        }
    });
    printf("with a 64 MiB H2D copy running back to back:\n");
    for (int threads : {8, 12, 16})
        printf("%7d %8.1f %10.1f\n", threads, gib_per_s(pinned, src, bytes, threads, false),
               gib_per_s(pinned, src, bytes, threads, true));
    stop = true;
    dma.join();
    return 0;
}
