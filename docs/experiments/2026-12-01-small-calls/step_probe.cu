// What the pieces of a small product cost on the GPU machine, in C (no Python): the checks, the launch and the
// tracking of the asynchronous entry, raw launches of kernels shaped as the library's, and the small host path
// against the floor of its own steps.
//   nvcc -O2 -std=c++17 -I../../../cuda step_probe.cu -L../../../matmul_opt -lmatmul \
//        -Xlinker -rpath,$PWD/../../../matmul_opt -o step_probe
// Prints microseconds per call, medians of 5 rounds of 2000 calls.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include <cuda.h>
#include <cuda_runtime.h>

#include "matmul.h"

using Clock = std::chrono::steady_clock;

static double per_call_us(const std::function<void()>& call, const std::function<void()>& finish, int calls = 2000) {
    std::vector<double> t;
    for (int r = 0; r < 6; ++r) {
        const auto s = Clock::now();
        for (int i = 0; i < calls; ++i) call();
        finish();
        if (r > 0) t.push_back(std::chrono::duration<double>(Clock::now() - s).count() / calls * 1e6);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct Args {  // about the size of the library's kernel parameters
    const float* a;
    const float* b;
    float* c;
    long long pad[12];
};

__global__ void touch(float* c) {
    if (threadIdx.x == 0) c[0] += 1.0f;
}

__global__ void shaped(Args args) {  // 256 threads, dynamic shared memory, a 120-byte parameter
    extern __shared__ float smem[];
    smem[threadIdx.x] = args.a[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) args.c[0] = smem[255];
}

// One block reads a 64 x 64 A and B (each thread 32 floats of each) and writes C: a 64^3 product's traffic.
__global__ void mapped_traffic(const float* a, const float* b, float* c) {
    float s = 0.f;
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) s += a[i] * b[i];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) c[i] = s;
}

static void report(const char* label, double us) { printf("  %-52s %7.2f\n", label, us); }

int main() {
    const int n = 64;
    const size_t bytes = sizeof(float) * n * n;
    float *da, *db, *dc;
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemset(da, 0, bytes);
    cudaMemset(db, 0, bytes);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    const auto nothing = [] {};
    const auto sync = [&] { cudaStreamSynchronize(s); };
    printf("asynchronous entry and its parts, 64^3, us per call\n");
    int count = 0;
    report("cudaGetDeviceCount", per_call_us([&] { cudaGetDeviceCount(&count); }, nothing));
    report("mm_gemm_check best (arguments + three pointer queries)", per_call_us([&] {
        mm_gemm_check("best", MM_OP_N, MM_OP_N, n, n, n, 1.f, da, n, db, n, 0.f, dc, n); }, nothing));
    for (const char* kernel : {"naive", "pipelined", "best", "wgmma_tf32"}) {
        char label[96];
        snprintf(label, sizeof label, "mm_gemm_async %s, enqueue", kernel);
        report(label, per_call_us([&] {
            mm_gemm_async(kernel, MM_OP_N, MM_OP_N, n, n, n, 1.f, da, n, db, n, 0.f, dc, n, s); }, sync));
    }
    mm_tracked_gemm call{};
    call.kernel = "best";
    call.problem = mm_gemm_problem{MM_OP_N, MM_OP_N, n, n, n, 1.f, da, n, db, n, 0.f, dc, n};
    call.stream = s;
    report("mm_gemm_async_tracked best, enqueue", per_call_us([&] { mm_gemm_async_tracked(&call); }, sync));
    report("raw launch: 1 x 32 threads, one pointer", per_call_us([&] { touch<<<1, 32, 0, s>>>(dc); }, sync));
    Args args{da, db, dc, {}};
    cudaFuncSetAttribute(shaped, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 << 10);
    report("raw launch: 1 x 256 threads, 120 B argument, 96 KiB smem",
           per_call_us([&] { shaped<<<1, 256, 96 << 10, s>>>(args); }, sync));
    report("raw launch: same, 4 KiB smem", per_call_us([&] { shaped<<<1, 256, 4 << 10, s>>>(args); }, sync));

    printf("tracking a launch, us per call\n");
    std::vector<cudaEvent_t> ring(64);
    for (auto& e : ring) cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    int at = 0;
    report("raw launch + cudaEventRecord", per_call_us([&] {
        touch<<<1, 32, 0, s>>>(dc); cudaEventRecord(ring[at++ & 63], s); }, sync));
    report("raw launch + cudaEventRecord + cudaEventQuery (2 back)", per_call_us([&] {
        touch<<<1, 32, 0, s>>>(dc); cudaEventRecord(ring[at & 63], s);
        if (cudaEventQuery(ring[(at - 2) & 63]) == cudaErrorNotReady) cudaGetLastError();
        ++at; }, sync));
    report("mm_gemm_async best + cudaEventRecord", per_call_us([&] {
        mm_gemm_async("best", MM_OP_N, MM_OP_N, n, n, n, 1.f, da, n, db, n, 0.f, dc, n, s);
        cudaEventRecord(ring[at++ & 63], s); }, sync));
    report("mm_gemm_async best + record + query (2 back)", per_call_us([&] {
        mm_gemm_async("best", MM_OP_N, MM_OP_N, n, n, n, 1.f, da, n, db, n, 0.f, dc, n, s);
        cudaEventRecord(ring[at & 63], s);
        if (cudaEventQuery(ring[(at - 2) & 63]) == cudaErrorNotReady) cudaGetLastError();
        ++at; }, sync));
    report("mm_gemm_async best + mm_marker_record + _finished", per_call_us([&] {
        mm_gemm_async("best", MM_OP_N, MM_OP_N, n, n, n, 1.f, da, n, db, n, 0.f, dc, n, s);
        void* marker = nullptr;
        int finished = 0;
        mm_marker_record(0, s, &marker);
        mm_marker_finished(marker, &finished); }, sync));
    using WriteValue = CUresult (*)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);
    WriteValue write_value = nullptr;
    cudaDriverEntryPointQueryResult found{};
    cudaGetDriverEntryPointByVersion("cuStreamWriteValue64", reinterpret_cast<void**>(&write_value), 12000,
                                     cudaEnableDefault, &found);
    uint64_t* word = nullptr;
    cudaHostAlloc(&word, 64, cudaHostAllocMapped);
    uint64_t* word_device = nullptr;
    cudaHostGetDevicePointer(reinterpret_cast<void**>(&word_device), word, 0);
    if (write_value != nullptr) {
        uint64_t ticket = 0;
        report("raw launch + cuStreamWriteValue64 (ticket to pinned)", per_call_us([&] {
            touch<<<1, 32, 0, s>>>(dc);
            write_value(s, reinterpret_cast<CUdeviceptr>(word_device), ++ticket, 0); }, sync));
        report("mm_gemm_async best + cuStreamWriteValue64", per_call_us([&] {
            mm_gemm_async("best", MM_OP_N, MM_OP_N, n, n, n, 1.f, da, n, db, n, 0.f, dc, n, s);
            write_value(s, reinterpret_cast<CUdeviceptr>(word_device), ++ticket, 0); }, sync));
        printf("  last ticket written %llu of %llu\n", (unsigned long long)*(volatile uint64_t*)word,
               (unsigned long long)ticket);
    } else {
        printf("  cuStreamWriteValue64 not found\n");
    }
    printf("host path, 64^3, us per call\n");
    std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n);
    report("mm_gemm_host best (pageable)", per_call_us([&] {
        mm_gemm_host("best", MM_OP_N, MM_OP_N, n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n); }, nothing));
    report("mm_gemm_host naive (pageable)", per_call_us([&] {
        mm_gemm_host("naive", MM_OP_N, MM_OP_N, n, n, n, 1.f, a.data(), n, b.data(), n, 0.f, c.data(), n); }, nothing));
    float* image = nullptr;
    cudaHostAlloc(&image, 3 * bytes, cudaHostAllocMapped | cudaHostAllocPortable);
    float* mapped = nullptr;
    cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped), image, 0);
    report("floor, mapped: copy A, B in; launch; sync; copy C out", per_call_us([&] {
        std::memcpy(image, a.data(), bytes);
        std::memcpy(image + n * n, b.data(), bytes);
        mapped_traffic<<<1, 256, 0, s>>>(mapped, mapped + n * n, mapped + 2 * n * n);
        cudaStreamSynchronize(s);
        std::memcpy(c.data(), image + 2 * n * n, bytes); }, nothing));
    report("the same kernel on device memory: launch; sync", per_call_us([&] {
        mapped_traffic<<<1, 256, 0, s>>>(da, db, dc);
        cudaStreamSynchronize(s); }, nothing));
    report("floor, copies: A, B up; launch; C down; sync", per_call_us([&] {
        std::memcpy(image, a.data(), bytes);
        std::memcpy(image + n * n, b.data(), bytes);
        cudaMemcpyAsync(da, image, 2 * bytes, cudaMemcpyHostToDevice, s);
        mapped_traffic<<<1, 256, 0, s>>>(da, da + n * n, dc);
        cudaMemcpyAsync(image + 2 * n * n, dc, bytes, cudaMemcpyDeviceToHost, s);
        cudaStreamSynchronize(s);
        std::memcpy(c.data(), image + 2 * n * n, bytes); }, nothing));
    report("launch + sync of an empty kernel", per_call_us([&] { touch<<<1, 32, 0, s>>>(dc); cudaStreamSynchronize(s); }, nothing));
    cudaEvent_t done;
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    report("launch + event record + event sync", per_call_us([&] {
        touch<<<1, 32, 0, s>>>(dc); cudaEventRecord(done, s); cudaEventSynchronize(done); }, nothing));
    printf("last error: %s\n", mm_last_error());
    return 0;
}
