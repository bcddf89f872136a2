// A landed operand tile turned into what TF32 wgmma reads from shared memory (device): K-major, 128-byte swizzled,
// every value rounded to TF32 (cvt.rna), ordered before the tensor cores' reads.
//
// The destination holds kRows rows of 32 floats (one K tile of 32), the 16-byte chunk c of row r at chunk c ^ (r % 8)
// (core/mma/wgmma_tf32.cuh). The source is the bulk tensor copy's box of the operand as stored:
//   kStoredKMajor:  the same layout already (the copy's 128-byte swizzle): each chunk is rounded where it lies.
//   otherwise:      32 rows (K) of kRows floats, unswizzled: thread chunk i reads the four K values of row
//                   n = i % kRows at k = 4c .. 4c + 3 (c = i / kRows), so a warp's 32 loads of one k are 32
//                   consecutive floats, and its float4 stores of eight rows n land in eight distinct chunks: both are
//                   free of bank conflicts.
// A pass costs one shared-memory read and one write of the tile; the caller's barrier publishes it.
#pragma once

#include <cstdint>

#include "core/copy/bulk_tensor.cuh"
#include "core/mma/tf32_mma_sync.cuh"

namespace gemm {

__device__ __forceinline__ float4 round_to_tf32(float a, float b, float c, float d) {
    return make_float4(__uint_as_float(to_tf32(a)), __uint_as_float(to_tf32(b)), __uint_as_float(to_tf32(c)),
                       __uint_as_float(to_tf32(d)));
}

// Thread `t` of kThreads converts its share of the tile from `landed` into `k_major` (1,024-byte aligned), then
// fences its writes for the async proxy.
template <int kRows, int kThreads, bool kStoredKMajor>
__device__ __forceinline__ void tf32_k_major_stage(const float* landed, float* k_major, int t) {
    constexpr int kChunksPerRow = 8;  // 32 floats
    constexpr int kChunks = kRows * kChunksPerRow;
    static_assert(kRows % 32 == 0 && kThreads % 32 == 0, "a warp's chunks share one k and have consecutive rows");
    float4* const dst = reinterpret_cast<float4*>(k_major);
    if constexpr (kStoredKMajor) {
        const float4* const src = reinterpret_cast<const float4*>(landed);
#pragma unroll 4
        for (int i = t; i < kChunks; i += kThreads) {
            const float4 v = src[i];
            dst[i] = round_to_tf32(v.x, v.y, v.z, v.w);
        }
    } else {
#pragma unroll 4
        for (int i = t; i < kChunks; i += kThreads) {
            const int n = i % kRows, c = i / kRows;
            const float* const column = landed + 4 * c * kRows + n;
            dst[n * kChunksPerRow + (c ^ (n % 8))] =
                round_to_tf32(column[0], column[kRows], column[2 * kRows], column[3 * kRows]);
        }
    }
    fence_proxy_async_shared();
}

}  // namespace gemm
