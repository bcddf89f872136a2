// Loading the library's kernels before their first launch (host only).
//
// CUDA loads a translation unit's module, and then each kernel of it, when a kernel is first used (lazy loading, the
// default since CUDA 12.2). A module of many configurations takes milliseconds to load, so without more the first
// product of each new shape would pay for the modules and kernels its choice needs. Instead the first launch of the
// library on each GPU loads every module of the library with all its kernels (launch_with calls
// load_kernel_modules): the first call pays for all at once, and the calls after it never wait for a load. A process
// that sets CUDA_MODULE_LOADING=LAZY itself keeps CUDA's lazy loading for the library too (less GPU memory for code
// it never runs, and a first call that loads only what it needs).
//
// Every translation unit that includes this header (through core/launch.h, which every launcher uses) gets an empty
// anchor kernel in its module and registers it during static initialisation; the anchors are how the loader finds
// the modules, since CUDA does not list the modules a library registered.
#pragma once

#include <cuda_runtime.h>

namespace gemm {

// Adds the module of `anchor` (a kernel's host handle) to those load_kernel_modules loads. Returns true.
bool register_kernel_module(const void* anchor);

// Loads every registered module and all of its kernels on the current GPU, once per GPU, unless the environment
// asks for lazy loading (CUDA_MODULE_LOADING=LAZY). Loading only saves time:
// where the driver lacks a call it needs, or a call fails, the kernels load on first use as before, and no error is
// left behind.
void load_kernel_modules();

namespace {
__global__ void kernel_module_anchor() {}
[[maybe_unused]] const bool kernel_module_registered =
    register_kernel_module(reinterpret_cast<const void*>(&kernel_module_anchor));
}  // namespace

}  // namespace gemm
