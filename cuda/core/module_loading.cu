// gemm::load_kernel_modules: every registered module and its kernels loaded on a GPU (core/module_loading.h).
#include "core/module_loading.h"

#include <cuda.h>

#include <atomic>
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

constexpr int kMaxDevices = 64;
std::atomic<bool> loaded[kMaxDevices];
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
    if (device < 0 || device >= kMaxDevices || loaded[device].load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> hold(loading);
    if (loaded[device].load(std::memory_order_relaxed)) return;
    const char* mode = std::getenv("CUDA_MODULE_LOADING");
    const bool lazy_asked = mode != nullptr && std::strcmp(mode, "LAZY") == 0;
    const DriverCalls& calls = driver();
    if (!lazy_asked && calls.complete())
        for (const void* anchor : anchors()) load_module_of(anchor, calls);
    loaded[device].store(true, std::memory_order_release);
}

}  // namespace gemm
