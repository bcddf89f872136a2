// What a small product costs without Python: the CUDA floor of its copies and launch, and the library's entries.
// Build from the repository root, after make (for matmul_opt/libmatmul.so), and run:
//   nvcc -O2 -std=c++17 -Icuda docs/experiments/2026-12-01-host-streaming/latency_probe.cu -Lmatmul_opt -lmatmul \
//        -Xlinker -rpath,$PWD/matmul_opt -o latency_probe && ./latency_probe
// Prints microseconds per call, medians of 5 rounds of 2000 calls.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include <cuda_runtime.h>

#include "matmul.h"

__global__ void touch(float* c) {
    if (threadIdx.x == 0) c[0] += 1.0f;
}

static double per_call_us(const std::function<void()>& call, const std::function<void()>& finish) {
    std::vector<double> rounds;
    call();
    finish();
    for (int r = 0; r < 5; ++r) {
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < 2000; ++i) call();
        finish();
        rounds.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                         2000);
    }
    std::sort(rounds.begin(), rounds.end());
    return rounds[2];
}

int main() {
    const int n = 64;
    const size_t bytes = size_t(n) * n * sizeof(float);
    float *host_a = nullptr, *pinned = nullptr, *device = nullptr;
    std::vector<float> a(n * n), b(n * n), c(n * n);
    for (int i = 0; i < n * n; ++i) a[i] = b[i] = float(i % 7) * 0.25f - 0.75f;
    cudaMallocHost(&pinned, 3 * bytes);
    cudaMalloc(&device, 3 * bytes);
    host_a = a.data();
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    const auto sync = [&] { cudaStreamSynchronize(s); };
    const auto none = [] {};
    std::printf("empty-ish kernel, launch only        %7.2f us\n", per_call_us([&] { touch<<<1, 32, 0, s>>>(device); }, sync));
    std::printf("kernel + sync                        %7.2f us\n", per_call_us([&] { touch<<<1, 32, 0, s>>>(device); sync(); }, none));
    std::printf("H2D 32K + kernel + D2H 16K + sync     %7.2f us\n", per_call_us([&] {
        cudaMemcpyAsync(device, pinned, 2 * bytes, cudaMemcpyHostToDevice, s);
        touch<<<1, 32, 0, s>>>(device + 2 * n * n);
        cudaMemcpyAsync(pinned + 2 * n * n, device + 2 * n * n, bytes, cudaMemcpyDeviceToHost, s);
        sync();
    }, none));
    std::printf("mm_gemm_host best 64^3 (pageable)    %7.2f us\n", per_call_us([&] {
        mm_gemm_host("best", MM_OP_N, MM_OP_N, n, n, n, 1.0f, host_a, n, b.data(), n, 0.0f, c.data(), n);
    }, none));
    std::printf("mm_gemm_async best 64^3, enqueue     %7.2f us\n", per_call_us([&] {
        mm_gemm_async("best", MM_OP_N, MM_OP_N, n, n, n, 1.0f, device, n, device + n * n, n, 0.0f, device + 2 * n * n,
                      n, s);
    }, sync));
    std::printf("mm_gemm_async + marker, enqueue      %7.2f us\n", per_call_us([&] {
        mm_gemm_async("best", MM_OP_N, MM_OP_N, n, n, n, 1.0f, device, n, device + n * n, n, 0.0f, device + 2 * n * n,
                      n, s);
        void* marker = nullptr;
        mm_marker_record(0, s, &marker);
        int done = 0;
        do mm_marker_finished(marker, &done); while (!done);
    }, sync));
    std::printf("last error: %s\n", mm_last_error());
    return 0;
}
