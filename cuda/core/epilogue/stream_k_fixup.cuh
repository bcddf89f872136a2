// The stream-K fixup (device): partial tiles published to a workspace slot by the blocks that hold a tile's
// earlier K iterations, and added in by the block that finishes it, in a fixed order (results are reproducible
// run to run). Publication: global stores, a fence, a release flag; the finisher acquires the flag first.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace gemm {

__device__ __forceinline__ void release_flag(int* flag) {
    asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
}

__device__ __forceinline__ int acquire_flag(const int* flag) {
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    return v;
}

// The accumulators of a whole block (kThreads threads, each holding a Warp::Acc) as one workspace slot, laid out
// [element][thread] so that every access is a coalesced float4 per thread.
template <class Warp, int kThreads>
struct PartialTile {
    static constexpr int kFloat4s = Warp::kTM * Warp::kTN / 4;  // per thread
    static constexpr int64_t kSlotFloat4s = int64_t(kFloat4s) * kThreads;

    // Float4 v of a thread's accumulators is acc[i][j..j+3].
    __device__ static void position(int v, int& i, int& j) {
        i = v / (Warp::kTN / 4);
        j = 4 * (v % (Warp::kTN / 4));
    }

    // Every thread of the block calls it; it contains a block barrier.
    __device__ static void publish(const typename Warp::Acc& acc, float4* slot, int* flag) {
#pragma unroll
        for (int v = 0; v < kFloat4s; ++v) {
            int i, j;
            position(v, i, j);
            __stcg(slot + v * kThreads + threadIdx.x, make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
        }
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) release_flag(flag);
    }

    // Waits for the slot's flag and adds the slot into acc. Every thread of the block calls it.
    __device__ static void add(typename Warp::Acc& acc, const float4* slot, const int* flag) {
        if (threadIdx.x == 0)
            while (acquire_flag(flag) == 0) __nanosleep(64);
        __syncthreads();
#pragma unroll
        for (int v = 0; v < kFloat4s; ++v) {
            int i, j;
            position(v, i, j);
            const float4 p = __ldcg(slot + v * kThreads + threadIdx.x);
            acc[i][j] += p.x;
            acc[i][j + 1] += p.y;
            acc[i][j + 2] += p.z;
            acc[i][j + 3] += p.w;
        }
    }
};

}  // namespace gemm
