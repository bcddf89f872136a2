// Compile-time indexing of register arrays (device). An index that is not a compile-time constant after
// unrolling can move a register array to local memory; these helpers make the constant explicit.
#pragma once

#include <type_traits>

#include <cuda_runtime.h>

namespace gemm {

// Calls f(std::integral_constant<int, I>{}) for I = First .. Last-1, in order. The index is a compile-time
// constant inside f, so register arrays indexed by it stay in registers whatever the unroller decides.
template <int First, int Last, class F>
__device__ __forceinline__ void static_for(F&& f) {
    if constexpr (First < Last) {
        f(std::integral_constant<int, First>{});
        static_for<First + 1, Last>(f);
    }
}

// Component i (a compile-time constant after unrolling) of a float4.
__device__ __forceinline__ float f4_get(const float4& v, int i) {
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

}  // namespace gemm
