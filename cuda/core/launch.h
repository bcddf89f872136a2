// Kernel launches (host only): every launcher enqueues its kernels through gemm::launch, which launches directly
// or, inside a GraphLaunches scope, through a one-node CUDA graph kept per thread, GPU, stream and kernel. The first
// launch on each GPU loads every kernel of the library there first (core/module_loading.h).
//
// Why graphs: launching an instantiated graph whose kernel node takes new parameters costs the host less than a
// `<<<>>>` launch (docs/experiments/2026-12-01-launch-paths.md), and for a small product on GPU arrays the launch is
// the largest part of the C entry, itself the largest part of the call (docs/experiments/2026-12-01-call-floor.md).
// The entries that enqueue products for callers (mm_gemm_async and its wrappers, the host path) open the scope;
// benchmark() does not, so kernel timings stay those of direct launches.
//
// A graph's node takes the kernel's grid, block, shared memory and arguments anew at every launch. Launches of one
// executable graph run one after another whatever their streams, so each stream gets its own. A stream being
// captured, or any failure of the graph path, falls back to the direct launch, which then reports what it finds.
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include "core/module_loading.h"
#include "core/status.h"

namespace gemm {

// Launches inside the scope (on the constructing thread) go through graphs; scopes nest.
class GraphLaunches {
  public:
    GraphLaunches();
    ~GraphLaunches();
    GraphLaunches(const GraphLaunches&) = delete;
    GraphLaunches& operator=(const GraphLaunches&) = delete;
};

// Enqueues `kernel` with the argument array `args` (one pointer per parameter) on `stream` of the current GPU, in
// thread block clusters of cluster_z blocks along z where cluster_z > 1 (sm_90), or cooperatively, every block at
// once, where `cooperative` (the kernel may then synchronise its grid), and names `what` in the error it returns.
// Clusters and cooperative launches are always direct launches, as a graph's node would need them as attributes of
// its own.
mm_status launch_with(const void* kernel, dim3 grid, dim3 block, size_t smem_bytes, cudaStream_t stream, void** args,
                      const char* what, unsigned cluster_z = 1, bool cooperative = false);

// launch_with(kernel, ..., args converted to the kernel's parameter types).
template <typename... Params, typename... Args>
mm_status launch_converted(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem_bytes, cudaStream_t stream,
                           const char* what, unsigned cluster_z, bool cooperative, Args&&... args) {
    static_assert(sizeof...(Params) == sizeof...(Args), "one argument per kernel parameter");
    static_assert(sizeof...(Params) > 0, "kernels here take arguments");
    std::tuple<std::remove_cvref_t<Params>...> values(std::forward<Args>(args)...);
    return std::apply(
        [&](auto&... value) {
            void* pointers[] = {static_cast<void*>(&value)...};
            return launch_with(reinterpret_cast<const void*>(kernel), grid, block, smem_bytes, stream, pointers, what,
                               cluster_z, cooperative);
        },
        values);
}

// Enqueues kernel<<<grid, block, smem_bytes, stream>>>(args...) in clusters of cluster_z blocks along z, the
// arguments converted to the kernel's parameter types, and names `what` in the error it returns.
template <typename... Params, typename... Args>
mm_status launch_in_clusters(unsigned cluster_z, void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem_bytes,
                             cudaStream_t stream, const char* what, Args&&... args) {
    return launch_converted(kernel, grid, block, smem_bytes, stream, what, cluster_z, false,
                            std::forward<Args>(args)...);
}

// As launch_in_clusters without clusters, and cooperatively where `cooperative` (every block must then run at once:
// core/device.h's runs_at_once says whether they do).
template <typename... Params, typename... Args>
mm_status launch_cooperative(bool cooperative, void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem_bytes,
                             cudaStream_t stream, const char* what, Args&&... args) {
    return launch_converted(kernel, grid, block, smem_bytes, stream, what, 1, cooperative,
                            std::forward<Args>(args)...);
}

// Enqueues kernel<<<grid, block, smem_bytes, stream>>>(args...), as launch_in_clusters without clusters.
template <typename... Params, typename... Args>
mm_status launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t smem_bytes, cudaStream_t stream,
                 const char* what, Args&&... args) {
    return launch_converted(kernel, grid, block, smem_bytes, stream, what, 1, false, std::forward<Args>(args)...);
}

}  // namespace gemm
