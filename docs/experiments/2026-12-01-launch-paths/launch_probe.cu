// What enqueueing one small kernel costs the host by each CUDA path: the runtime's launch, the driver's, and a
// one-node CUDA graph (as it is, and with its kernel's parameters replaced before each launch, as a library call
// with new pointers would need); then the same with a marker after the kernel, as the library's tracked entry
// records one: a launch and cudaEventRecord, against a two-node graph (kernel, event record) whose parameters and
// event are replaced before each launch. The kernel takes a 120-byte parameter, about the size of the library's.
//   nvcc -O2 -o launch_probe launch_probe.cu && ./launch_probe
#include <chrono>
#include <cstdio>

#include <cuda.h>
#include <cuda_runtime.h>

struct Params {
    float* c;
    long long pad[14];
};

__global__ void touch(Params p) {
    if (threadIdx.x == 0 && p.pad[0] < 0) p.c[0] = 1.0f;  // never taken: the launch is what is timed
}

#define CHECK(call)                                                                      \
    do {                                                                                 \
        const cudaError_t err_ = (call);                                                 \
        if (err_ != cudaSuccess) {                                                       \
            printf("%s failed: %s\n", #call, cudaGetErrorString(err_));                 \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

template <typename F>
double us_per_call(F enqueue, cudaStream_t stream, int calls = 20000) {
    for (int i = 0; i < calls / 10; ++i) enqueue(i);
    cudaStreamSynchronize(stream);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) enqueue(i);
    const double enqueue_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    cudaStreamSynchronize(stream);
    return enqueue_us / calls;
}

int main() {
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    float* c = nullptr;
    CHECK(cudaMalloc(&c, 4096));
    Params params{c, {}};
    void* args[] = {&params};
    cudaFunction_t runtime_function = nullptr;
    CHECK(cudaGetFuncBySymbol(&runtime_function, reinterpret_cast<const void*>(touch)));
    CUfunction driver_function = reinterpret_cast<CUfunction>(runtime_function);
    using LaunchFn = decltype(&cuLaunchKernel);  // the driver's entry, found through the runtime (no -lcuda)
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found{};
    CHECK(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &entry, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess) return 1;
    const LaunchFn driver_launch = reinterpret_cast<LaunchFn>(entry);

    cudaGraph_t graph = nullptr;
    CHECK(cudaGraphCreate(&graph, 0));
    cudaKernelNodeParams node_params{};
    node_params.func = reinterpret_cast<void*>(touch);
    node_params.gridDim = dim3(1);
    node_params.blockDim = dim3(128);
    node_params.kernelParams = args;
    cudaGraphNode_t node = nullptr;
    CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &node_params));
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));

    constexpr int kMarkers = 64;  // markers in turn, as the library recycles finished ones
    cudaEvent_t markers[kMarkers];
    for (cudaEvent_t& marker : markers) CHECK(cudaEventCreateWithFlags(&marker, cudaEventDisableTiming));
    cudaGraph_t marked = nullptr;
    CHECK(cudaGraphCreate(&marked, 0));
    cudaGraphNode_t marked_kernel = nullptr, marked_record = nullptr;
    CHECK(cudaGraphAddKernelNode(&marked_kernel, marked, nullptr, 0, &node_params));
    CHECK(cudaGraphAddEventRecordNode(&marked_record, marked, &marked_kernel, 1, markers[0]));
    cudaGraphExec_t marked_exec = nullptr;
    CHECK(cudaGraphInstantiate(&marked_exec, marked, 0));

    for (int round = 0; round < 3; ++round) {
        const double chevron = us_per_call([&](int i) { params.pad[1] = i; touch<<<1, 128, 0, stream>>>(params); }, stream);
        const double runtime = us_per_call([&](int i) {
            params.pad[1] = i;
            cudaLaunchKernel(reinterpret_cast<const void*>(touch), dim3(1), dim3(128), args, 0, stream);
        }, stream);
        const double driver = us_per_call([&](int i) {
            params.pad[1] = i;
            driver_launch(driver_function, 1, 1, 1, 128, 1, 1, 0, reinterpret_cast<CUstream>(stream), args, nullptr);
        }, stream);
        const double graph_as_is = us_per_call([&](int) { cudaGraphLaunch(exec, stream); }, stream);
        const double graph_new_params = us_per_call([&](int i) {
            params.pad[1] = i;
            cudaGraphExecKernelNodeSetParams(exec, node, &node_params);
            cudaGraphLaunch(exec, stream);
        }, stream);
        const double launch_marked = us_per_call([&](int i) {
            params.pad[1] = i;
            touch<<<1, 128, 0, stream>>>(params);
            cudaEventRecord(markers[i % kMarkers], stream);
        }, stream);
        const double graph_marked = us_per_call([&](int i) {
            params.pad[1] = i;
            cudaGraphExecKernelNodeSetParams(marked_exec, marked_kernel, &node_params);
            cudaGraphExecEventRecordNodeSetEvent(marked_exec, marked_record, markers[i % kMarkers]);
            cudaGraphLaunch(marked_exec, stream);
        }, stream);
        printf("round %d, us per enqueue: <<<>>> %.2f  cudaLaunchKernel %.2f  cuLaunchKernel %.2f  graph %.2f  "
               "graph with new parameters %.2f  |  <<<>>> + cudaEventRecord %.2f  graph with new parameters and "
               "marker %.2f\n", round, chevron, runtime, driver, graph_as_is, graph_new_params, launch_marked,
               graph_marked);
    }
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaGetLastError());
    printf("no CUDA error\n");
    return 0;
}
