// The rearranging passes of the tensor-core kernels timed alone on the GPU, against a device-to-device copy of the
// same bytes: the transposition rounded to TF32 (wgmma_tf32's B), the transposing TF32 split and the split of
// contiguous rows (wgmma_3xtf32's B and A), at square sizes. Random inputs; CUDA events around each launch, three
// launches of warm-up, the median of 30.
// Usage: pass_probe [N]. Build from the repository root, against the rearrange.cu to measure:
//   nvcc -O3 -std=c++20 -Icuda -gencode arch=compute_90,code=sm_90 \
//        docs/experiments/2026-12-01-operand-passes/pass_probe.cu cuda/core/layout/rearrange.cu \
//        cuda/core/status.cu cuda/core/device_buffer.cu cuda/core/launch.cu -o pass_probe
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "core/layout/rearrange.h"

namespace {

void require(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

void require(mm_status s, const char* what) {
    if (s != MM_OK) {
        std::fprintf(stderr, "%s: status %d\n", what, int(s));
        std::exit(1);
    }
}

__global__ void fill_uniform(float* x, int64_t n, uint32_t seed) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
        uint32_t h = uint32_t(i) * 2654435761u ^ seed;
        h ^= h >> 16, h *= 0x7feb352du, h ^= h >> 15, h *= 0x846ca68bu, h ^= h >> 16;
        x[i] = float(h) * (2.0f / 4294967296.0f) - 1.0f;
    }
}

double median_us(const std::function<void()>& launch) {
    cudaEvent_t start, stop;
    require(cudaEventCreate(&start), "cudaEventCreate");
    require(cudaEventCreate(&stop), "cudaEventCreate");
    for (int i = 0; i < 3; ++i) launch();
    std::vector<double> us;
    for (int i = 0; i < 30; ++i) {
        require(cudaEventRecord(start), "cudaEventRecord");
        launch();
        require(cudaEventRecord(stop), "cudaEventRecord");
        require(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        require(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        us.push_back(1e3 * ms);
    }
    require(cudaGetLastError(), "a launch");
    std::sort(us.begin(), us.end());
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return us[us.size() / 2];
}

void report(const char* what, int64_t rows, int64_t cols, double bytes, double us) {
    std::printf("%-22s %6lld x %-6lld %9.1f us %6.2f TB/s\n", what, (long long)rows, (long long)cols, us,
                bytes / us / 1e6);
}

// Every value of the exact transposition and of the transposing split checked on the host, at shapes with ragged
// edges and padded source columns (the float4 path) and with odd strides (the scalar path).
void check_transpositions() {
    const int64_t cases[][3] = {{4097, 1001, 4100}, {5, 3, 8}, {64, 64, 64}, {130, 67, 132}, {131, 70, 131}};
    for (const auto& c : cases) {
        const int64_t rows = c[0], cols = c[1], stride = c[2], ld = padded_ld(cols), n = stride * cols;
        float *src, *dst, *small;
        int* flags;
        require(cudaMalloc(&src, n * sizeof(float)), "cudaMalloc");
        require(cudaMalloc(&dst, rows * ld * sizeof(float)), "cudaMalloc");
        require(cudaMalloc(&small, rows * ld * sizeof(float)), "cudaMalloc");
        require(cudaMalloc(&flags, rows * sizeof(int)), "cudaMalloc");
        fill_uniform<<<256, 256>>>(src, n, 99u);
        std::vector<float> host(n), out(rows * ld), out_small(rows * ld);
        require(cudaMemcpy(host.data(), src, n * sizeof(float), cudaMemcpyDeviceToHost), "copy");
        int64_t bad = 0;
        require(gemm::launch_gather(src, rows, cols, 1, stride, dst, ld, 0, false), "gather");
        require(cudaMemcpy(out.data(), dst, rows * ld * sizeof(float), cudaMemcpyDeviceToHost), "copy");
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t k = 0; k < cols; ++k) bad += out[r * ld + k] != host[r + k * stride];
        require(cudaMemset(flags, 0, rows * sizeof(int)), "cudaMemset");
        require(gemm::launch_tf32_split_gather(src, rows, cols, 1, stride, dst, small, flags, ld, 0), "split");
        require(cudaMemcpy(out.data(), dst, rows * ld * sizeof(float), cudaMemcpyDeviceToHost), "copy");
        require(cudaMemcpy(out_small.data(), small, rows * ld * sizeof(float), cudaMemcpyDeviceToHost), "copy");
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t k = 0; k < cols; ++k) {
                const double x = host[r + k * stride], b = out[r * ld + k], s = out_small[r * ld + k];
                bad += std::abs(b + s - x) > 0x1p-22 * std::abs(x) || std::abs(b - x) > 0x1p-11 * std::abs(x);
            }
        std::printf("check %lld x %lld, column stride %lld: %lld wrong values\n", (long long)rows, (long long)cols,
                    (long long)stride, (long long)bad);
        cudaFree(src), cudaFree(dst), cudaFree(small), cudaFree(flags);
    }
}

}  // namespace

// With an argument N, only the N x N shape and no checks (for a profiler).
int main(int argc, char** argv) {
    const int64_t only = argc > 1 ? std::atoll(argv[1]) : 0;
    if (only == 0) check_transpositions();
    const int64_t shapes[][2] = {{2048, 2048}, {4096, 4096}, {8192, 8192}, {4097, 4093}};
    for (const auto& shape : shapes) {
        const int64_t rows = shape[0], cols = shape[1], n = rows * cols;
        if (only != 0 && rows != only) continue;
        const int64_t ld = padded_ld(cols);
        float *src, *big, *small;
        int* flags;
        require(cudaMalloc(&src, n * sizeof(float)), "cudaMalloc");
        require(cudaMalloc(&big, rows * ld * sizeof(float)), "cudaMalloc");
        require(cudaMalloc(&small, rows * ld * sizeof(float)), "cudaMalloc");
        require(cudaMalloc(&flags, rows * sizeof(int)), "cudaMalloc");
        fill_uniform<<<1024, 256>>>(src, n, 1234u);
        require(cudaMemset(flags, 0, rows * sizeof(int)), "cudaMemset");
        const double word = sizeof(float) * double(n);
        report("copy", rows, cols, 2 * word, median_us([&] {
                   require(cudaMemcpyAsync(big, src, n * sizeof(float), cudaMemcpyDeviceToDevice, 0), "copy");
               }));
        // The source as the transpose of a cols x rows row-major matrix: element (r, c) at src[r + c * rows].
        report("transpose to tf32", rows, cols, 2 * word, median_us([&] {
                   require(gemm::launch_gather(src, rows, cols, 1, rows, big, ld, 0, true), "gather");
               }));
        report("transposing split", rows, cols, 3 * word, median_us([&] {
                   require(gemm::launch_tf32_split_gather(src, rows, cols, 1, rows, big, small, flags, ld, 0), "split");
               }));
        report("split of rows", rows, cols, 3 * word, median_us([&] {
                   require(gemm::launch_tf32_split_gather(src, rows, cols, cols, 1, big, small, flags, ld, 0), "split");
               }));
        cudaFree(src), cudaFree(big), cudaFree(small), cudaFree(flags);
    }
    return 0;
}
