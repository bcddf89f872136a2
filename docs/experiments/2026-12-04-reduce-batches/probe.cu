// Times two builds of the split-K reduction (gemm::launch_split_k_reduce, compiled from two revisions of
// cuda/core/epilogue/split_k_reduce.cu into reduce_before and reduce_after by build.sh) on the workspaces of the
// split-K products of issue 32's shape grid, and checks that both give the same bits.
// Each timing: a kernel writes the workspace (as the product's slices do just before the reduction), then the
// reduction runs; CUDA events around the reduction alone, median of 50 after 5, the two builds alternating.
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/epilogue/split_k_reduce.h"

namespace gemm {
mm_status reduce_before(const float*, int64_t, int64_t, int, const GemmArgs&, cudaStream_t, ReduceOrder);
mm_status reduce_after(const float*, int64_t, int64_t, int, const GemmArgs&, cudaStream_t, ReduceOrder);
}  // namespace gemm

#define CHECK(x)                                                                                  \
    do {                                                                                          \
        cudaError_t e = (x);                                                                      \
        if (e != cudaSuccess) {                                                                   \
            std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e));         \
            std::exit(1);                                                                         \
        }                                                                                         \
    } while (0)

// Writes the workspace: a hash of the index, so every run writes fresh values over the same lines.
__global__ void write_slices(float* ws, int64_t n, unsigned salt) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
        unsigned h = unsigned(i) * 2654435761u ^ salt;
        h ^= h >> 13;
        ws[i] = float(h & 0xffff) / 65536.f - 0.5f;
    }
}

int main() {
    struct Case { int M, N, splits; const char* of; };
    const Case cases[] = {
        {128, 4096, 8, "128x4096x4096"}, {250, 1500, 11, "250x1500x3000"}, {385, 769, 5, "385x769x1537"},
        {1153, 1153, 2, "1153^3"},       {64, 64, 132, "64x64x1048576"},  {1, 1, 264, "1x1x1000000"},
        {300, 40, 33, "300x40x100000"},  {129, 4097, 3, "129x4097x2000"}, {16, 16, 264, "16x16x500000"},
    };
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::printf("%-16s %5s %5s %6s %10s %10s %7s %s\n", "product", "M", "N", "splits", "before us", "after us",
                "after/before", "same bits");
    for (const Case& c : cases) {
        const int64_t ldw = (c.N + 3) / 4 * 4, slab = int64_t(c.M) * ldw, n = slab * c.splits;
        float *ws, *C0, *C1;
        CHECK(cudaMalloc(&ws, n * sizeof(float)));
        CHECK(cudaMalloc(&C0, size_t(c.M) * c.N * sizeof(float)));
        CHECK(cudaMalloc(&C1, size_t(c.M) * c.N * sizeof(float)));
        GemmArgs g{};
        g.M = c.M;
        g.N = c.N;
        g.ldc = c.N;
        std::vector<float> times[2];
        for (int rep = 0; rep < 55; ++rep)
            for (int which = 0; which < 2; ++which) {
                write_slices<<<264, 256, 0, stream>>>(ws, n, unsigned(rep));
                CHECK(cudaGetLastError());
                g.C = which == 0 ? C0 : C1;
                CHECK(cudaEventRecord(e0, stream));
                const mm_status s = which == 0
                    ? gemm::reduce_before(ws, ldw, slab, c.splits, g, stream, gemm::ReduceOrder::kSliceOrder)
                    : gemm::reduce_after(ws, ldw, slab, c.splits, g, stream, gemm::ReduceOrder::kSliceOrder);
                if (s != MM_OK) {
                    std::printf("reduction failed: %d\n", int(s));
                    return 1;
                }
                CHECK(cudaEventRecord(e1, stream));
                CHECK(cudaEventSynchronize(e1));
                float ms = 0;
                CHECK(cudaEventElapsedTime(&ms, e0, e1));
                if (rep >= 5) times[which].push_back(ms * 1000.f);
            }
        std::vector<float> h0(size_t(c.M) * c.N), h1(h0.size());
        CHECK(cudaMemcpy(h0.data(), C0, h0.size() * 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(h1.data(), C1, h1.size() * 4, cudaMemcpyDeviceToHost));
        const bool same = std::memcmp(h0.data(), h1.data(), h0.size() * 4) == 0;
        for (auto& t : times) std::sort(t.begin(), t.end());
        const float b = times[0][times[0].size() / 2], a = times[1][times[1].size() / 2];
        std::printf("%-16s %5d %5d %6d %10.2f %10.2f %7.3f %s\n", c.of, c.M, c.N, c.splits, b, a, a / b,
                    same ? "yes" : "NO");
        CHECK(cudaFree(ws));
        CHECK(cudaFree(C0));
        CHECK(cudaFree(C1));
    }
    return 0;
}
