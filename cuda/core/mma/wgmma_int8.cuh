// Hopper warpgroup MMA on INT8 (device, sm_90a): wgmma.mma_async m64n256k32 s32.s8.s8, both operands from shared
// memory by descriptor.
//
// Integer wgmma reads both operands K-major (rows of K contiguous; the transposed forms are for 16-bit types). A
// K tile of 128 int8 is one 128-byte row per M or N index, which a bulk tensor copy with the 128-byte swizzle
// writes as TF32's 32 floats: so the descriptors are gemm::sw128_k_major_descriptor's, and successive k32 steps
// start 32 bytes further along the swizzled rows. The int32 sums are exact while no partial sum passes 2^31: each
// product of two int8 is at most 2^14 in magnitude, so a sum of up to 2^17 of them is exact.
//
// Accumulators (g = lane / 4, t = lane % 4, warp w of the warpgroup), as the fp32 ones of wgmma_tf32.cuh:
//   d[4j] (16w + g, 8j + 2t)   d[4j + 1] (.., 8j + 2t + 1)   d[4j + 2] (16w + g + 8, 8j + 2t)   d[4j + 3] (.., + 1)
#pragma once

#include <cstdint>

#include "core/mma/wgmma_tf32.cuh"

namespace gemm {

constexpr int kWgmmaInt8K = 32;  // k of one instruction

// wgmma_hold (wgmma_tf32.cuh) for int32 accumulators.
template <int kCount>
__device__ __forceinline__ void wgmma_hold(int32_t (&d)[kCount]) {
#pragma unroll
    for (int i = 0; i < kCount; ++i) asm volatile("" : "+r"(d[i])::"memory");
}

// MM_WGMMA_F32_8 (wgmma_tf32.cuh) for int32 accumulators.
#define MM_WGMMA_S32_8(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), "+r"(d[i + 4]),      \
                          "+r"(d[i + 5]), "+r"(d[i + 6]), "+r"(d[i + 7])

// d = A.B + (accumulate ? d : 0) for a 64 x 256 x 32 step of int8 with int32 sums, A and B by descriptor.
__device__ __forceinline__ void wgmma_m64n256k32_s8(int32_t (&d)[kWgmmaAccumulators], uint64_t a_desc,
                                                    uint64_t b_desc, bool accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8 {"
        MM_WGMMA_ACCUMULATORS_128 "}, "
        "%128, %129, p;\n"
        "}\n"
        : MM_WGMMA_S32_8(0), MM_WGMMA_S32_8(8), MM_WGMMA_S32_8(16), MM_WGMMA_S32_8(24), MM_WGMMA_S32_8(32),
          MM_WGMMA_S32_8(40), MM_WGMMA_S32_8(48), MM_WGMMA_S32_8(56), MM_WGMMA_S32_8(64), MM_WGMMA_S32_8(72),
          MM_WGMMA_S32_8(80), MM_WGMMA_S32_8(88), MM_WGMMA_S32_8(96), MM_WGMMA_S32_8(104), MM_WGMMA_S32_8(112),
          MM_WGMMA_S32_8(120)
        : "l"(a_desc), "l"(b_desc), "r"(int(accumulate)));
}

}  // namespace gemm
