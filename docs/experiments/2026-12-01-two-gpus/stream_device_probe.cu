// What the asynchronous entry's stream check costs: cudaStreamGetDevice on a created stream, per call, beside
// cudaGetDevice (which the entry already makes) and an empty kernel launch.
//   nvcc -O2 -o stream_device_probe stream_device_probe.cu && ./stream_device_probe
#include <chrono>
#include <cstdio>

#include <cuda_runtime.h>

__global__ void empty() {}

template <typename F>
double ns_per_call(F call, int calls) {
    for (int i = 0; i < calls / 10; ++i) call();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) call();
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / calls;
}

int main() {
    cudaStream_t stream = nullptr;
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) return 1;
    int device = -1, sink = 0;
    for (int round = 0; round < 3; ++round) {
        const double get_stream_device = ns_per_call([&] { cudaStreamGetDevice(stream, &device); sink += device; }, 1000000);
        const double get_device = ns_per_call([&] { cudaGetDevice(&device); sink += device; }, 1000000);
        const double launch = ns_per_call([&] { empty<<<1, 32, 0, stream>>>(); }, 20000);
        cudaStreamSynchronize(stream);
        printf("round %d: cudaStreamGetDevice %.1f ns, cudaGetDevice %.1f ns, empty launch %.1f ns (device %d)\n", round,
               get_stream_device, get_device, launch, device);
    }
    const cudaError_t err = cudaGetLastError();
    printf("last error: %s (%d)\n", cudaGetErrorString(err), sink > 0);
    return err == cudaSuccess ? 0 : 1;
}
