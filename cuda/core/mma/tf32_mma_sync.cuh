// Warp-level TF32 tensor-core primitives of sm_80 and later (device): rounding to TF32, the ldmatrix fragment load
// and the m16n8k8 multiply-accumulate.
//
// A TF32 value is an fp32 bit pattern whose low 13 mantissa bits the tensor cores ignore (1 sign, 8 exponent, 10
// mantissa bits): cvt.rna.tf32.f32 rounds to the nearest such value, ties away from zero, where feeding raw fp32
// bits would truncate.
//
// Fragments of mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 (PTX ISA, "Matrix fragments for mma.m16n8k8"),
// with g = lane / 4 and t = lane % 4 in the warp:
//   A (16 x 8, row-major):    a0 (g, t)   a1 (g + 8, t)   a2 (g, t + 4)   a3 (g + 8, t + 4)
//   B (8 x 8, column-major):  b0 (t, g)   b1 (t + 4, g)
//   C (16 x 8):               c0 (g, 2t)  c1 (g, 2t + 1)  c2 (g + 8, 2t)  c3 (g + 8, 2t + 1)
// ldmatrix.x4 of b16 data gives lane l the 32-bit word (l / 4, l % 4) of each of four 8 x 4 fp32 blocks, which is
// the A fragment exactly when the four blocks are rows 0-7 / 8-15 at k 0-3, then the same rows at k 4-7.
#pragma once

#include <cstdint>

namespace gemm {

__device__ __forceinline__ uint32_t to_tf32(float x) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

// The A fragment of the 16 x 8 block whose rows start 16-byte aligned at `row_addr` for this lane, as raw fp32 bits:
// the shared-window address of row (lane % 16), column 4 * (lane / 16) of the block, rows at any 16-byte multiple
// apart.
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&a)[4], uint32_t row_addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(row_addr));
}

// The same fragment rounded to TF32.
__device__ __forceinline__ void ldmatrix_a_tf32(uint32_t (&a)[4], uint32_t row_addr) {
    ldmatrix_x4(a, row_addr);
#pragma unroll
    for (int i = 0; i < 4; ++i) a[i] = to_tf32(__uint_as_float(a[i]));
}

// x as big + small, both TF32 and rounded to nearest: big = tf32(x), small = tf32(x - big). x - big is exact (at
// most 13 significant bits), so big + small is x to within 2^-22 |x|, where big alone is within 2^-11 |x|. Where
// big is Inf or NaN, small is 0, so that Inf and NaN pass through big·(other) as they would through x; an x within
// half a TF32 step of the fp32 maximum rounds up to big = Inf, the one place the split overflows where x did not.
struct Tf32Split {
    uint32_t big, small;
};
__device__ __forceinline__ Tf32Split split_tf32(float x) {
    const uint32_t big = to_tf32(x);
    const float b = __uint_as_float(big);
    return Tf32Split{big, isfinite(b) ? to_tf32(x - b) : 0u};
}

// c += a·b on one 16 x 8 tile, with fp32 accumulation.
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&c)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

}  // namespace gemm
