// Sums rounded up at every step, for bounds that must not fall below the exact sum (the Ozaki scheme's bound on each
// line's squared norm: core/layout/line_survey.h, core/layout/scaling_check.h).
#pragma once

namespace gemm {

// The sum of every lane's value over the warp, each addition rounded up, by a fixed butterfly (every lane gets the
// same bits: an addition gives the same bits in either order).
__device__ __forceinline__ double warp_sum_up(double value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value = __dadd_ru(value, __shfl_xor_sync(0xffffffffu, value, offset));
    return value;
}

}  // namespace gemm
