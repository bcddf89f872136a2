// The Ozaki scheme II's passes over memory (host interface; the kernels are in residues.cu): operands scaled to
// integers per line and cut into their residues modulo pairwise coprime moduli of at most 256, each an int8 matrix
// that one INT8 tensor-core product takes, and C rebuilt from the products' residues by the Chinese remainder
// theorem (Ozaki, Uchino, Imamura 2025; docs/experiments/2026-12-02-ozaki-emulation.md emulates it exactly).
//
// A line is a row of op(A) or a column of op(B): each line x is scaled by its own power of two, 2^(bits - e) with
// e the exponent of its largest magnitude (max |x| < 2^e), and rounded to integers of at most `bits` bits. With
// alpha bits for A and beta for B, every element of the integer product is at most K 2^(alpha + beta) in
// magnitude; ozaki_scaling_bits chooses alpha + beta so that this stays under half the moduli's product, which
// makes the rebuild exact whatever the inputs (the worst-case scaling of the emulation record).
#pragma once

#include <cstdint>

#include "core/problem.h"

namespace gemm {

inline constexpr int kOzakiModuli = 8;

// Magnitudes from here up (2^64) are left to the fix-up with Inf and NaN: a product of two of them leaves the fp32
// range, where NumPy's answer depends on the order of its sums, and one such value in a line takes the line's
// scale so far above its other values that they round away.
inline constexpr float kOzakiLargeMagnitude = 18446744073709551616.0f;

// A modulus m and what reducing by it and rebuilding from it take: the inverse of M / m modulo m (M the moduli's
// product), 2^16 mod m and ceil(2^32 / m), with which residue_of reduces by multiplication (a division by a modulus
// known only at run time costs about twenty instructions), and 1 / m.
struct OzakiModulus {
    int m;
    int inverse;
    int two16;        // 2^16 mod m
    unsigned magic;   // ceil(2^32 / m)
    double reciprocal;
};

// The moduli (pairwise coprime, at most 256: a residue fits int8) and their product M; passed to kernels by value.
struct OzakiModuli {
    OzakiModulus modulus[kOzakiModuli];
    double product;     // M, rounded to double
    int product_bits;   // bits of M: 2^(product_bits - 1) <= M < 2^product_bits
};
const OzakiModuli& ozaki_moduli();

// (hi 2^16 + lo) mod m in [0, m), for hi in [-2^15, 2^15] and lo in [0, 2^16): hi 2^16 is hi (2^16 mod m) modulo m,
// and m 2^16 added keeps the sum positive and under 2^25, where the multiply-high quotient by ceil(2^32 / m) is
// the true quotient or one more.
__host__ __device__ inline int residue_of(int hi, unsigned lo, const OzakiModulus& mod) {
    const unsigned u = unsigned(hi * mod.two16 + (mod.m << 16)) + lo;
#ifdef __CUDA_ARCH__
    const unsigned q = __umulhi(u, mod.magic);
#else
    const unsigned q = unsigned((uint64_t(u) * mod.magic) >> 32);
#endif
    const int r = int(u - q * unsigned(mod.m));
    return r < 0 ? r + mod.m : r;
}

// x mod m in [0, m), for any int32 x.
__host__ __device__ inline int residue_of(int x, const OzakiModulus& mod) {
    return residue_of(x >> 16, unsigned(x) & 0xffffu, mod);
}

// The bits alpha + beta that the scaled operands' product may use at depth K: K 2^(alpha + beta) < M / 2.
int ozaki_scaling_bits(int64_t K);

// An operand's lines as op(X) reads them: `lines` lines of `k` elements from x with leading dimension ld, each line
// a stored row (k_contiguous) or a stored column.
struct OperandLines {
    const float* x;
    int64_t ld;
    int64_t lines;
    int64_t k;
    bool k_contiguous;
};

// max_bits[line] = the bits of the largest magnitude below kOzakiLargeMagnitude in the line (non-negative floats
// order as their bits; 0 for a line of zeros) and flags[line] = 1 where the line holds an Inf, a NaN or a
// magnitude of kOzakiLargeMagnitude or more; both must hold 0 before.
mm_status launch_line_max(const OperandLines& op, unsigned* max_bits, int* flags, cudaStream_t stream);

// For each modulus l: planes + l * lines * kp holds the line's values scaled to `bits` bits (by max_bits) and
// reduced to symmetric residues modulo the modulus, K-major (line * kp + k), with 0 for k from K to kp and for the
// values launch_line_max flags (whose lines the non-finite fix-up recomputes).
mm_status launch_residues(const OperandLines& op, const unsigned* max_bits, int bits, int8_t* planes, int64_t kp,
                          cudaStream_t stream);

// C (M x N, leading dimension ldc) from residues + l * M * N, each the product's residue modulo modulus l in
// [0, m) at (i * N + j): the integer product rebuilt in float64 and scaled back by the lines' powers of two
// (a_max_bits, b_max_bits as launch_line_max wrote them; `bits` = alpha + beta).
mm_status launch_ozaki_rebuild(const uint8_t* residues, int M, int N, const unsigned* a_max_bits,
                               const unsigned* b_max_bits, int bits, float* C, int64_t ldc, cudaStream_t stream);

}  // namespace gemm
