// Hopper warpgroup MMA on TF32 operands in shared memory (device, sm_90a): the matrix descriptors and the
// wgmma.mma_async m64n128k8 instruction with its fences.
//
// A warpgroup (4 consecutive warps, the first a multiple of 4) issues one wgmma for a 64 x 128 x 8 product. TF32
// wgmma reads both operands from shared memory K-major (rows of K contiguous; the transposed form is for 16-bit
// types only), here in the layout a bulk tensor copy with the 128-byte swizzle writes: rows of 32 floats (128 bytes),
// eight rows making a 1,024-byte swizzle atom, atoms one after another. Its descriptor holds the start address, the
// byte offset between 8-row groups (1,024) and the swizzle mode; successive k8 steps inside the 128-byte row start
// 32 bytes further on, the hardware applying the swizzle to the address it forms, so a stage must start 1,024-byte
// aligned. The instruction reads fp32 bit patterns and ignores their low 13 mantissa bits (it truncates): a kernel
// that wants round-to-nearest rounds the operands in shared memory first (round_stage_to_tf32).
//
// Accumulators: warp w of the warpgroup holds rows 16w .. 16w + 15; lane (g = lane / 4, t = lane % 4) holds, for
// each 8-column chunk j, d[4j] (g, 8j + 2t), d[4j + 1] (g, 8j + 2t + 1), d[4j + 2] (g + 8, 8j + 2t), d[4j + 3]
// (g + 8, 8j + 2t + 1).
#pragma once

#include <cstdint>

#include "core/copy/bulk_tensor.cuh"
#include "core/mma/tf32_mma_sync.cuh"

namespace gemm {

constexpr int kWgmmaN = 128;                  // columns of one instruction's product
constexpr int kWgmmaAccumulators = kWgmmaN / 2;  // 64 x N fp32 over 128 threads

// The descriptor of a K-major operand tile in 128-byte-swizzled rows of 32 floats, starting at shared-window
// address `addr` (1,024-byte aligned at a stage's start, plus 32 bytes per k8 step inside it).
__device__ __forceinline__ uint64_t sw128_k_major_descriptor(uint32_t addr) {
    constexpr uint64_t kStrideBytes = 1024;  // between 8-row groups
    constexpr uint64_t kLeadingBytes = 16;   // unused for swizzled K-major layouts; 1 in 16-byte units
    constexpr uint64_t kSwizzle128B = 1;
    return uint64_t((addr & 0x3FFFF) >> 4) | ((kLeadingBytes >> 4) << 16) | ((kStrideBytes >> 4) << 32) |
           (kSwizzle128B << 62);
}

// Keeps the compiler from moving accumulator accesses across the asynchronous MMAs that own the registers.
__device__ __forceinline__ void wgmma_hold(float (&d)[kWgmmaAccumulators]) {
#pragma unroll
    for (int i = 0; i < kWgmmaAccumulators; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// d = A·B + (accumulate ? d : 0) for a 64 x 128 x 8 step, A and B given by their descriptors.
__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[kWgmmaAccumulators], uint64_t a_desc, uint64_t b_desc,
                                                     int accumulate) {
#define MM_D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
                 "+f"(d[i + 6]), "+f"(d[i + 7])
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
        "%64, %65, p, 1, 1;\n"
        "}\n"
        : MM_D8(0), MM_D8(8), MM_D8(16), MM_D8(24), MM_D8(32), MM_D8(40), MM_D8(48), MM_D8(56)
        : "l"(a_desc), "l"(b_desc), "r"(accumulate));
#undef MM_D8
}

// Rounds `floats` floats of shared memory at `stage` to TF32 in place (cvt.rna), thread `tid` of `threads` taking
// every threads-th float4, and orders the writes before the tensor cores' reads (fence.proxy.async; the caller's
// barrier then publishes them to the warpgroups).
template <int kFloats, int kThreads>
__device__ __forceinline__ void round_stage_to_tf32(float* stage, int tid) {
    static_assert(kFloats % (4 * kThreads) == 0, "whole float4 per thread");
    float4* v = reinterpret_cast<float4*>(stage);
#pragma unroll
    for (int i = tid; i < kFloats / 4; i += kThreads) {
        float4 x = v[i];
        x.x = __uint_as_float(to_tf32(x.x));
        x.y = __uint_as_float(to_tf32(x.y));
        x.z = __uint_as_float(to_tf32(x.z));
        x.w = __uint_as_float(to_tf32(x.w));
        v[i] = x;
    }
    fence_proxy_async_shared();
}

}  // namespace gemm
