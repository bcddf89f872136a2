// What launchers ask of the current device (host only): cached attributes for shape heuristics, the
// shared-memory limit of a kernel, and whether a kernel has machine code for this GPU.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/status.h"

namespace gemm {

// The device ordinals whose answers the caches below keep (past them, every call asks anew).
inline constexpr int kCachedDevices = 64;

// *value = what query(dev, value) answers for the current device `dev`, asked once per ordinal: slot_of(dev) names
// the cache's slot (nullptr: not cached), which holds the answer + 1, 0 until asked. Answers must be >= 0.
template <class SlotOf, class Query>
mm_status once_per_device(SlotOf&& slot_of, int* value, Query&& query) {
    int dev = 0;
    MM_TRY(mm_check_cuda(cudaGetDevice(&dev), "cudaGetDevice"));
    std::atomic<int>* slot = dev >= 0 && dev < kCachedDevices ? slot_of(dev) : nullptr;
    const int known = slot ? slot->load(std::memory_order_relaxed) : 0;
    if (known > 0) {
        *value = known - 1;
        return MM_OK;
    }
    MM_TRY(query(dev, value));
    if (slot) slot->store(*value + 1, std::memory_order_relaxed);
    return MM_OK;
}

// Attribute `Attr` of the current device, queried once per device ordinal (cudaDeviceGetAttribute is cheap
// but not free, and the heuristics ask on every launch).
template <cudaDeviceAttr Attr>
mm_status cached_attribute(int* value, const char* what) {
    static std::atomic<int> cache[kCachedDevices];
    return once_per_device([](int dev) { return &cache[dev]; }, value, [&](int dev, int* n) {
        return mm_check_cuda(cudaDeviceGetAttribute(n, Attr, dev), what);
    });
}

// Multiprocessor count of the current device.
inline mm_status sm_count(int* count) {
    return cached_attribute<cudaDevAttrMultiProcessorCount>(count, "cudaDeviceGetAttribute(MultiProcessorCount)");
}

// Major compute capability of the current device.
inline mm_status compute_major(int* major) {
    return cached_attribute<cudaDevAttrComputeCapabilityMajor>(major, "cudaDeviceGetAttribute(ComputeCapabilityMajor)");
}

// Lets `kernel` use `smem_bytes` of dynamic shared memory, with the largest shared-memory carveout, on the
// current device. Both are per-device function attributes: they are set once per device ordinal (< 64),
// recorded in `configured_devices`, which the caller keeps per kernel instantiation.
inline mm_status raise_shared_memory_limit(const void* kernel, int smem_bytes, std::atomic<uint64_t>& configured_devices,
                                           const char* what) {
    int dev = 0;
    MM_TRY(mm_check_cuda(cudaGetDevice(&dev), "cudaGetDevice"));
    const uint64_t bit = uint64_t(1) << (dev & 63);
    if (configured_devices.load(std::memory_order_acquire) & bit) return MM_OK;
    MM_TRY(mm_check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes), what));
    // Operands live in shared memory; ask for the largest carveout so that several blocks fit.
    MM_TRY(mm_check_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                              int(cudaSharedmemCarveoutMaxShared)),
                         what));
    configured_devices.fetch_or(bit, std::memory_order_release);
    return MM_OK;
}

// raise_shared_memory_limit for kernel kKernel, which keeps the record of configured devices.
template <auto kKernel>
mm_status allow_shared_memory(int smem_bytes, const char* what) {
    static std::atomic<uint64_t> configured_devices{0};
    return raise_shared_memory_limit(reinterpret_cast<const void*>(kKernel), smem_bytes, configured_devices, what);
}

// sm_90's shared memory: the most one block may ask for, an SM's total, and what the system reserves per block.
inline constexpr int kSmemPerBlock = 227 * 1024, kSmemPerSm = 228 * 1024, kSmemReservedPerBlock = 1024;

// Whether a block with `bytes` of dynamic shared memory fits the sm_90 per-block limit, and `blocks_per_sm` such
// blocks fit one SM.
constexpr bool fits_shared_memory(int bytes, int blocks_per_sm) {
    return bytes <= kSmemPerBlock && blocks_per_sm * (bytes + kSmemReservedPerBlock) <= kSmemPerSm;
}

// The most clusters of cluster_size blocks (along z), each block of `threads` threads with smem_bytes of dynamic
// shared memory, that the current device runs of `kernel` at once (cudaOccupancyMaxActiveClusters).
inline mm_status query_max_active_clusters(const void* kernel, int cluster_size, int threads, int smem_bytes,
                                           int* clusters) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = 1;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = unsigned(cluster_size);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(1, 1, unsigned(cluster_size));
    config.blockDim = dim3(unsigned(threads));
    config.dynamicSmemBytes = size_t(smem_bytes);
    config.attrs = &attribute;
    config.numAttrs = 1;
    return mm_check_cuda(cudaOccupancyMaxActiveClusters(clusters, kernel, &config), "cudaOccupancyMaxActiveClusters");
}

// query_max_active_clusters for kernel kKernel at a block size fixed per kernel, asked once per device ordinal,
// cluster size (up to kMaxClusterSize) and `variant` (up to kVariants; the caller's name for the shared
// memory it asks, which must be the same for the same variant). The kernel's shared-memory limit must allow it.
template <auto kKernel, int kMaxClusterSize, int kVariants>
mm_status max_active_clusters(int cluster_size, int variant, int threads, int smem_bytes, int* clusters) {
    static std::atomic<int> cache[kCachedDevices][kMaxClusterSize + 1][kVariants + 1];
    const bool cached = cluster_size >= 1 && cluster_size <= kMaxClusterSize && variant >= 0 && variant <= kVariants;
    return once_per_device(
        [&](int dev) { return cached ? &cache[dev][cluster_size][variant] : nullptr; }, clusters,
        [&](int, int* n) {
            return query_max_active_clusters(reinterpret_cast<const void*>(kKernel), cluster_size, threads,
                                             smem_bytes, n);
        });
}

// How many blocks of kernel kKernel (kThreads threads, kSmemBytes of dynamic shared memory, to which its limit is
// raised first) an SM of the current device holds at once, asked once per device ordinal.
template <auto kKernel, int kThreads, int kSmemBytes>
mm_status resident_blocks_per_sm(int* blocks) {
    static std::atomic<int> cache[kCachedDevices];
    return once_per_device([](int dev) { return &cache[dev]; }, blocks, [](int, int* n) {
        MM_TRY(allow_shared_memory<kKernel>(kSmemBytes, "the kernel's shared-memory limit"));
        return mm_check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, kKernel, kThreads, kSmemBytes),
                             "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    });
}

// Whether every block of a launch of kKernel over `grid` runs at once on the current device (resident_blocks_per_sm
// on every SM), as a cooperative launch needs.
template <auto kKernel, int kThreads, int kSmemBytes>
mm_status runs_at_once(dim3 grid, bool* at_once) {
    int sms = 0, per_sm = 0;
    MM_TRY(sm_count(&sms));
    MM_TRY((resident_blocks_per_sm<kKernel, kThreads, kSmemBytes>(&per_sm)));
    *at_once = uint64_t(grid.x) * grid.y * grid.z <= uint64_t(sms) * uint64_t(per_sm);
    return MM_OK;
}

// The architecture of the machine code the current device runs for `kernel` (major * 10 + minor, e.g. 90),
// or 0 when the library holds none that this device can run. Records nothing.
inline int machine_code_version(const void* kernel) {
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(&attr, kernel) != cudaSuccess) {
        cudaGetLastError();  // not sticky; clear it so the next check does not report it
        return 0;
    }
    return attr.binaryVersion;
}

// machine_code_version of kernel kKernel, asked once (a kernel's machine code does not change while the library
// is loaded).
template <auto kKernel>
int machine_code_of() {
    static const int version = machine_code_version(reinterpret_cast<const void*>(kKernel));
    return version;
}

}  // namespace gemm
