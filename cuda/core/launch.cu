// gemm::launch_with: direct launches, and the per-thread one-node graphs of GraphLaunches scopes (core/launch.h).
#include "core/launch.h"

#include <cstdint>

namespace gemm {
namespace {

// One instantiated graph of a single kernel node, for one GPU, stream and kernel.
struct GraphSlot {
    int device = -1;
    cudaStream_t stream = nullptr;
    const void* kernel = nullptr;
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    cudaGraphNode_t node = nullptr;
    uint64_t last_used = 0;  // 0: empty

    void release() {
        if (exec != nullptr) cudaGraphExecDestroy(exec);  // one still running is freed when it finishes
        if (graph != nullptr) cudaGraphDestroy(graph);
        *this = GraphSlot{};
    }
};

// A thread's graphs: a few, the least recently used replaced first (a thread rarely feeds more streams and kernels
// than this at once). Released when the thread ends.
class ThreadGraphs {
  public:
    ~ThreadGraphs() {
        for (GraphSlot& slot : slots_) slot.release();
    }

    // Enqueues `params` on `stream` of GPU `device` through this thread's graph of that stream and kernel.
    cudaError_t launch(int device, cudaStream_t stream, const cudaKernelNodeParams& params) {
        GraphSlot* slot = find(device, stream, params.func);
        cudaError_t err = cudaSuccess;
        if (slot != nullptr) {
            err = cudaGraphExecKernelNodeSetParams(slot->exec, slot->node, &params);
        } else {
            slot = least_recently_used();
            slot->release();
            err = instantiate(params, slot);
            slot->device = device;
            slot->stream = stream;
            slot->kernel = params.func;
        }
        if (err == cudaSuccess) err = cudaGraphLaunch(slot->exec, stream);
        if (err != cudaSuccess) {
            slot->release();
            return err;
        }
        slot->last_used = ++clock_;
        return cudaSuccess;
    }

    int depth = 0;  // open GraphLaunches scopes

  private:
    static constexpr int kSlots = 8;

    GraphSlot* find(int device, cudaStream_t stream, const void* kernel) {
        for (GraphSlot& slot : slots_)
            if (slot.last_used != 0 && slot.kernel == kernel && slot.stream == stream && slot.device == device)
                return &slot;
        return nullptr;
    }

    GraphSlot* least_recently_used() {
        GraphSlot* oldest = &slots_[0];
        for (GraphSlot& slot : slots_)
            if (slot.last_used < oldest->last_used) oldest = &slot;
        return oldest;
    }

    static cudaError_t instantiate(const cudaKernelNodeParams& params, GraphSlot* slot) {
        cudaError_t err = cudaGraphCreate(&slot->graph, 0);
        if (err == cudaSuccess) err = cudaGraphAddKernelNode(&slot->node, slot->graph, nullptr, 0, &params);
        if (err == cudaSuccess) err = cudaGraphInstantiate(&slot->exec, slot->graph, 0);
        return err;
    }

    GraphSlot slots_[kSlots];
    uint64_t clock_ = 0;
};

thread_local ThreadGraphs thread_graphs;

// Whether `stream` is free for a graph launch: not being captured (a capture records the direct launch instead).
bool graph_launch_allowed(cudaStream_t stream) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess) {
        cudaGetLastError();  // not sticky; the direct launch reports what is wrong with the stream
        return false;
    }
    return capture == cudaStreamCaptureStatusNone;
}

}  // namespace

GraphLaunches::GraphLaunches() { ++thread_graphs.depth; }
GraphLaunches::~GraphLaunches() { --thread_graphs.depth; }

mm_status launch_with(const void* kernel, dim3 grid, dim3 block, size_t smem_bytes, cudaStream_t stream, void** args,
                      const char* what, unsigned cluster_z, bool cooperative) {
    load_kernel_modules();
    if (cluster_z > 1 || cooperative) {
        cudaLaunchAttribute attribute{};
        if (cooperative) {
            attribute.id = cudaLaunchAttributeCooperative;
            attribute.val.cooperative = 1;
        } else {
            attribute.id = cudaLaunchAttributeClusterDimension;
            attribute.val.clusterDim.x = 1;
            attribute.val.clusterDim.y = 1;
            attribute.val.clusterDim.z = cluster_z;
        }
        cudaLaunchConfig_t config{grid, block, smem_bytes, stream, &attribute, 1};
        cudaLaunchKernelExC(&config, kernel, args);
        return mm_check_launch(what);
    }
    if (thread_graphs.depth > 0 && graph_launch_allowed(stream)) {
        int device = 0;
        if (cudaGetDevice(&device) == cudaSuccess &&
            thread_graphs.launch(device, stream, cudaKernelNodeParams{const_cast<void*>(kernel), grid, block,
                                                                      unsigned(smem_bytes), args, nullptr}) ==
                cudaSuccess)
            return mm_check_launch(what);
        cudaGetLastError();  // the direct launch below reports the failure, or succeeds where the graph could not
    }
    cudaLaunchKernel(kernel, grid, block, args, smem_bytes, stream);
    return mm_check_launch(what);  // what <<<>>> and cudaGetLastError report
}

}  // namespace gemm
