// Host-side costs on the GPU machine: CPU copy rates into pinned memory as the host path makes them, alone and beside
// a copy engine transfer, and what single CUDA runtime calls cost.
//   nvcc -O2 -std=c++17 -I../../../cuda host_probe.cu ../../../cuda/core/host/parallel_copy.cu \
//        -L../../../matmul_opt -lmatmul -Xlinker -rpath,$PWD/../../../matmul_opt -o host_probe
// Build from this folder with the lines above, after make at the repository root; run: ./host_probe
// Prints GiB/s and microseconds, medians of rounds.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "core/host/parallel_copy.h"
#include "matmul.h"

using Clock = std::chrono::steady_clock;

static double median_seconds(const std::function<void()>& f, int rounds) {
    std::vector<double> t;
    f();
    for (int r = 0; r < rounds; ++r) {
        const auto s = Clock::now();
        f();
        t.push_back(std::chrono::duration<double>(Clock::now() - s).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

static double per_call_us(const std::function<void()>& call, const std::function<void()>& finish, int calls = 2000) {
    return median_seconds([&] { for (int i = 0; i < calls; ++i) call(); finish(); }, 5) / calls * 1e6;
}

__global__ void touch(float* c) {
    if (threadIdx.x == 0) c[0] += 1.0f;
}

int main() {
    const size_t bytes = size_t(64) << 20;
    std::vector<char> pageable(bytes, 1);  // touched: no page faults in the copies
    char *pinned = nullptr, *pinned2 = nullptr, *device = nullptr, *device2 = nullptr;
    cudaMallocHost(&pinned, bytes);
    cudaMallocHost(&pinned2, bytes);
    cudaMalloc(&device, bytes);
    cudaMalloc(&device2, bytes);
    std::memset(pinned, 0, bytes);
    std::memset(pinned2, 0, bytes);
    const auto rate = [&](double s) { return double(bytes) / s / double(1ull << 30); };
    const auto pieces = [&](size_t piece) {
        for (size_t o = 0; o < bytes; o += piece) parallel_copy_rows(pinned + o, piece, pageable.data() + o, piece, piece, 1);
    };
    printf("CPU copy 64 MiB pageable -> pinned, GiB/s\n");
    printf("  memcpy, one thread                  %6.1f\n", rate(median_seconds([&] { std::memcpy(pinned, pageable.data(), bytes); }, 7)));
    printf("  parallel_copy_rows, whole           %6.1f\n", rate(median_seconds([&] { pieces(bytes); }, 7)));
    for (size_t piece : {size_t(16) << 20, size_t(4) << 20, size_t(1) << 20})
        printf("  parallel_copy_rows, %2zu MiB pieces   %6.1f\n", piece >> 20, rate(median_seconds([&] { pieces(piece); }, 7)));
    // The same while the copy engine streams another pinned buffer to the GPU, back to back.
    std::atomic<bool> stop{false};
    cudaStream_t side;
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    std::thread dma([&] {
        while (!stop) {
            cudaMemcpyAsync(device2, pinned2, bytes, cudaMemcpyHostToDevice, side);
            cudaStreamSynchronize(side);
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    printf("  ... with a 64 MiB H2D copy running: whole %6.1f, 4 MiB pieces %6.1f\n",
           rate(median_seconds([&] { pieces(bytes); }, 7)), rate(median_seconds([&] { pieces(size_t(4) << 20); }, 7)));
    stop = true;
    dma.join();
    printf("copy engine alone: H2D pinned %6.1f GiB/s\n", rate(median_seconds([&] {
        cudaMemcpyAsync(device2, pinned2, bytes, cudaMemcpyHostToDevice, side); cudaStreamSynchronize(side); }, 7)));

    printf("CUDA runtime calls, us per call\n");
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaEvent_t e;
    cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    int dev = 0;
    cudaPointerAttributes attr;
    const auto nothing = [] {};
    const auto sync = [&] { cudaStreamSynchronize(s); };
    printf("  cudaGetDevice                       %6.2f\n", per_call_us([&] { cudaGetDevice(&dev); }, nothing));
    printf("  cudaPointerGetAttributes            %6.2f\n", per_call_us([&] { cudaPointerGetAttributes(&attr, device); }, nothing));
    printf("  cudaEventRecord                     %6.2f\n", per_call_us([&] { cudaEventRecord(e, s); }, sync));
    cudaStreamSynchronize(s);
    printf("  cudaEventQuery (finished)           %6.2f\n", per_call_us([&] { cudaEventQuery(e); }, nothing));
    printf("  cudaEventSynchronize (finished)     %6.2f\n", per_call_us([&] { cudaEventSynchronize(e); }, nothing));
    printf("  cudaStreamSynchronize (idle)        %6.2f\n", per_call_us([&] { cudaStreamSynchronize(s); }, nothing));
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    printf("  cudaMallocFromPoolAsync + FreeAsync %6.2f\n", per_call_us([&] {
        void* p; cudaMallocFromPoolAsync(&p, 200 << 10, pool, s); cudaFreeAsync(p, s); }, sync));
    printf("  cudaMemcpyAsync H2D 48 KiB, enqueue %6.2f\n", per_call_us([&] { cudaMemcpyAsync(device, pinned, 48 << 10, cudaMemcpyHostToDevice, s); }, sync));
    printf("  kernel launch                       %6.2f\n", per_call_us([&] { touch<<<1, 32, 0, s>>>((float*)device); }, sync));
    printf("  launch + cudaStreamSynchronize      %6.2f\n", per_call_us([&] { touch<<<1, 32, 0, s>>>((float*)device); sync(); }, nothing));
    printf("  H2D 48K + launch + D2H 16K + sync   %6.2f\n", per_call_us([&] {
        cudaMemcpyAsync(device, pinned, 48 << 10, cudaMemcpyHostToDevice, s);
        touch<<<1, 32, 0, s>>>((float*)device);
        cudaMemcpyAsync(pinned, device, 16 << 10, cudaMemcpyDeviceToHost, s); sync(); }, nothing));
    const int n = 64;
    std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
    float* dc = (float*)device2;
    printf("  mm_gemm_async best 64^3, enqueue    %6.2f\n", per_call_us([&] {
        mm_gemm_async("best", MM_OP_N, MM_OP_N, n, n, n, 1.f, (float*)device, n, (float*)device, n, 0.f, dc, n, s); }, sync));
    printf("  mm_gemm_host best 64^3 (pageable)   %6.2f\n", per_call_us([&] {
        mm_gemm_host("best", MM_OP_N, MM_OP_N, n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n); }, nothing));
    printf("last error: %s\n", mm_last_error());
    return 0;
}
