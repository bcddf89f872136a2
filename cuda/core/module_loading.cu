// gemm::load_kernel_modules: every registered module and its kernels loaded on a GPU (core/module_loading.h).
#include "core/module_loading.h"

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/driver_entry.h"

namespace gemm {
namespace {

// The driver calls the loader needs (CUDA 12.4).
struct DriverCalls {
    CUresult (*module_of)(CUmodule*, CUfunction) = nullptr;
    CUresult (*function_count)(unsigned*, CUmodule) = nullptr;
    CUresult (*functions)(CUfunction*, unsigned, CUmodule) = nullptr;
    CUresult (*load)(CUfunction) = nullptr;

    bool complete() const { return module_of && function_count && functions && load; }
};

template <typename Fn>
void fetch(const char* symbol, Fn* fn) {
    *fn = reinterpret_cast<Fn>(driver_entry_point(symbol, 12040));
}

const DriverCalls& driver() {
    static const DriverCalls calls = [] {
        DriverCalls c;
        fetch("cuFuncGetModule", &c.module_of);
        fetch("cuModuleGetFunctionCount", &c.function_count);
        fetch("cuModuleEnumerateFunctions", &c.functions);
        fetch("cuFuncLoad", &c.load);
        return c;
    }();
    return calls;
}

std::vector<const void*>& anchors() {
    static std::vector<const void*> registered;  // filled during static initialisation, read-only after it
    return registered;
}

// Loads the module of `anchor` and every kernel in it on the current GPU.
void load_module_of(const void* anchor, const DriverCalls& calls) {
    cudaFunction_t function = nullptr;
    if (cudaGetFuncBySymbol(&function, anchor) != cudaSuccess) {  // this loads the module
        cudaGetLastError();
        return;
    }
    CUmodule module = nullptr;
    unsigned count = 0;
    if (calls.module_of(&module, reinterpret_cast<CUfunction>(function)) != CUDA_SUCCESS ||
        calls.function_count(&count, module) != CUDA_SUCCESS)
        return;
    std::vector<CUfunction> functions(count);
    if (count == 0 || calls.functions(functions.data(), count, module) != CUDA_SUCCESS) return;
    for (CUfunction f : functions) calls.load(f);
}

std::atomic<uint64_t> loaded_devices{0};  // a bit per device ordinal, as core/device.h keeps them
std::mutex loading;

}  // namespace

bool register_kernel_module(const void* anchor) {
    anchors().push_back(anchor);
    return true;
}

void load_kernel_modules() {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) {
        cudaGetLastError();  // the launch that follows reports it
        return;
    }
    const uint64_t bit = uint64_t(1) << (device & 63);
    if (loaded_devices.load(std::memory_order_acquire) & bit) return;
    std::lock_guard<std::mutex> hold(loading);
    if (loaded_devices.load(std::memory_order_relaxed) & bit) return;
    const char* mode = std::getenv("CUDA_MODULE_LOADING");
    const bool lazy_asked = mode != nullptr && std::strcmp(mode, "LAZY") == 0;
    const DriverCalls& calls = driver();
    if (!lazy_asked && calls.complete())
        for (const void* anchor : anchors()) load_module_of(anchor, calls);
    loaded_devices.fetch_or(bit, std::memory_order_release);
}

}  // namespace gemm
