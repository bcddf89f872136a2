// mm_benchmark: times one kernel on device-resident random inputs with CUDA events.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/device.h"
#include "core/device_buffer.h"
#include "core/launch.h"
#include "api/validate.h"

namespace {

const cudaStream_t kStream = cudaStreamPerThread;

// Uniform values in [-1, 1] from a counter-based hash, so inputs are random yet need no RNG state or library.
__global__ void fill_uniform(float* data, int64_t count, uint64_t seed) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
        uint64_t z = seed + uint64_t(i) * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        data[i] = float(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
    }
}

mm_status random_matrix(DeviceBuffer& buffer, int64_t count, uint64_t seed, const char* what) {
    MM_TRY(buffer.allocate(sizeof(float) * std::max<int64_t>(count, 1), what));
    return gemm::launch(fill_uniform, 1024, 256, 0, kStream, "fill_uniform", buffer.data(), count, seed);
}

// A read of `count` floats, summed so that the reads cannot be dropped: one partial sum per block.
__global__ void read_all(const float4* __restrict__ data, int64_t count4, float* __restrict__ sums) {
    float s = 0.f;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count4; i += int64_t(gridDim.x) * blockDim.x) {
        const float4 v = data[i];
        s += (v.x + v.y) + (v.z + v.w);
    }
    if (s == 12345.f) sums[blockIdx.x] = s;  // never taken on the probe's data; keeps the loads
}

class EventPair {
  public:
    EventPair() {
        created_ = cudaEventCreate(&start_) == cudaSuccess && cudaEventCreate(&stop_) == cudaSuccess;
    }
    ~EventPair() {
        if (start_) cudaEventDestroy(start_);
        if (stop_) cudaEventDestroy(stop_);
    }
    bool created() const { return created_; }
    cudaEvent_t start_ = nullptr, stop_ = nullptr;

  private:
    bool created_;
};

// Milliseconds per launch over `launches` back-to-back launches.
mm_status time_round(const KernelEntry& entry, const GemmArgs& g, EventPair& events, int launches, double* ms) {
    MM_TRY(mm_check_cuda(cudaEventRecord(events.start_, kStream), "cudaEventRecord"));
    for (int i = 0; i < launches; ++i) MM_TRY(launch_kernel(entry, g, kStream));
    MM_TRY(mm_check_cuda(cudaEventRecord(events.stop_, kStream), "cudaEventRecord"));
    MM_TRY(mm_check_cuda(cudaEventSynchronize(events.stop_), entry.name));
    float elapsed = 0;
    MM_TRY(mm_check_cuda(cudaEventElapsedTime(&elapsed, events.start_, events.stop_), "cudaEventElapsedTime"));
    *ms = double(elapsed) / launches;
    return MM_OK;
}

double median_of(std::vector<double>& times) {
    const size_t n = times.size();
    std::nth_element(times.begin(), times.begin() + n / 2, times.end());
    double median = times[n / 2];
    if (n % 2 == 0) median = (median + *std::max_element(times.begin(), times.begin() + n / 2)) / 2;
    return median;
}

}  // namespace

extern "C" mm_status mm_benchmark_read_bandwidth(uint64_t bytes, int repetitions, double* gb_per_s) {
    if (gb_per_s == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "gb_per_s is a null pointer");
    if (bytes < 16 || repetitions < 1)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "need bytes >= 16 and repetitions >= 1, got %llu and %d",
                       (unsigned long long)bytes, repetitions);
    const int64_t count4 = int64_t(bytes / 16);
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int blocks = sms * 8;
    DeviceBuffer data(kStream), sums(kStream);
    MM_TRY(random_matrix(data, count4 * 4, 3, "allocating the bandwidth probe's buffer"));
    MM_TRY(sums.allocate(sizeof(float) * blocks, "allocating the bandwidth probe's sums"));
    EventPair events;
    if (!events.created()) return mm_check_cuda(cudaGetLastError(), "cudaEventCreate");
    const float4* source = reinterpret_cast<const float4*>(data.data());
    MM_TRY(gemm::launch(read_all, blocks, 256, 0, kStream, "read_all", source, count4, sums.data()));  // warm-up
    std::vector<double> times(repetitions);
    for (double& t : times) {
        MM_TRY(mm_check_cuda(cudaEventRecord(events.start_, kStream), "cudaEventRecord"));
        MM_TRY(gemm::launch(read_all, blocks, 256, 0, kStream, "read_all", source, count4, sums.data()));
        MM_TRY(mm_check_cuda(cudaEventRecord(events.stop_, kStream), "cudaEventRecord"));
        MM_TRY(mm_check_cuda(cudaEventSynchronize(events.stop_), "read_all"));
        float elapsed = 0;
        MM_TRY(mm_check_cuda(cudaEventElapsedTime(&elapsed, events.start_, events.stop_), "cudaEventElapsedTime"));
        t = double(elapsed);
    }
    *gb_per_s = double(count4 * 16) / (median_of(times) * 1e6);
    return MM_OK;
}

extern "C" mm_status mm_benchmark(const char* kernel, int64_t M, int64_t N, int64_t K, int warmup,
                                  int repetitions, double* median_ms) {
    const KernelEntry* entry = registry_find(kernel);
    if (entry == nullptr) return MM_ERR_UNKNOWN_KERNEL;
    if (median_ms == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "median_ms is a null pointer");
    MM_TRY(check_dimension("M", M));
    MM_TRY(check_dimension("N", N));
    MM_TRY(check_dimension("K", K));
    if (M < 1 || N < 1 || K < 1)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "benchmark dimensions must be >= 1, got %lldx%lldx%lld",
                       (long long)M, (long long)N, (long long)K);
    if (warmup < 0 || repetitions < 1)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "need warmup >= 0 and repetitions >= 1, got %d and %d", warmup,
                       repetitions);
    MM_TRY(ready_to_run(entry));

    // The layout of the host path's device copies (rows padded to 4 floats): the kernel as a whole product of M rows,
    // where the host path runs it on panels of rows (cuda/api/gemm_host.cu).
    const int64_t lda = padded_ld(K), ldb = padded_ld(N), ldc = padded_ld(N);
    DeviceBuffer A(kStream), B(kStream), C(kStream);
    MM_TRY(random_matrix(A, M * lda, 1, "allocating the benchmark's A"));
    MM_TRY(random_matrix(B, K * ldb, 2, "allocating the benchmark's B"));
    MM_TRY(C.allocate(sizeof(float) * M * ldc, "allocating the benchmark's C"));
    GemmArgs g{int(M), int(N), int(K), A.data(), lda, B.data(), ldb, C.data(), ldc};

    EventPair events;
    if (!events.created()) return mm_check_cuda(cudaGetLastError(), "cudaEventCreate");
    for (int i = 0; i < warmup; ++i) MM_TRY(launch_kernel(*entry, g, kStream));
    double single_ms = 0;
    MM_TRY(time_round(*entry, g, events, 1, &single_ms));
    // Rounds of about a millisecond keep the event resolution (~0.5 us) and launch gaps out of small timings.
    const int launches = int(std::clamp(std::ceil(1.0 / std::max(single_ms, 1e-4)), 1.0, 1000.0));
    std::vector<double> times(repetitions);
    for (double& t : times) MM_TRY(time_round(*entry, g, events, launches, &t));
    *median_ms = median_of(times);
    return MM_OK;
}
