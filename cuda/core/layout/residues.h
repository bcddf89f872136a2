// The Ozaki scheme II's passes over memory (host interface; the kernels are in residues.cu): operands scaled to
// integers per line and cut into their residues modulo pairwise coprime moduli of at most 256, each an int8 matrix
// that one INT8 tensor-core product takes, and C rebuilt from the products' residues by the Chinese remainder
// theorem (Ozaki, Uchino, Imamura 2025; docs/experiments/2026-12-02-ozaki-emulation.md emulates it exactly).
//
// A line is a row of op(A) or a column of op(B): each line x is scaled by its own power of two, 2^(bits - e) with
// e the exponent of its largest magnitude (max |x| < 2^e), and rounded to integers of at most `bits` bits: alpha bits
// for A's lines, beta for B's. The integer product must stay under half the moduli's product M, which makes the
// rebuild exact whatever the inputs. By Cauchy-Schwarz each element of it is at most the product of its row's and
// its column's Euclidean norms, and a scaled line's norm is at most 2^alpha ||x|| / 2^e plus its rounding, so
// alpha + beta is chosen from the largest ||x|| / 2^e of each operand (launch_line_norms, launch_scaling_bits): at
// most K 2^(alpha + beta) for lines of equal magnitudes, as the worst case, and about 2^(alpha + beta) for lines
// that one value dominates, such as magnitudes spread over many octaves, which so keep far more bits.
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
    double product;  // M, rounded to double
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

// norms[line] += the line's sum over k of (|x| / 2^e)^2 in units of 2^-32, each term rounded up (an integer sum, the
// same in any order), with e the line's exponent from max_bits; the values launch_line_max flags count 0. norms must
// hold 0 before.
mm_status launch_line_norms(const OperandLines& op, const unsigned* max_bits, uint64_t* norms, cudaStream_t stream);

// bits[0] = alpha + beta for the lines' norms (a_norms over a_lines lines, b_norms over b_lines, at depth k): the
// largest sum, at most 62, whose bound on the integer product stays under M / 2; alpha is its larger half.
mm_status launch_scaling_bits(const uint64_t* a_norms, int64_t a_lines, const uint64_t* b_norms, int64_t b_lines,
                              int64_t k, int* bits, cudaStream_t stream);

// The bits of one operand's lines from launch_scaling_bits's sum: alpha for A, beta for B.
enum class OzakiOperand { kA, kB };

// For each modulus l: planes + l * lines * kp holds the line's values scaled to its operand's bits (by max_bits) and
// reduced to symmetric residues modulo the modulus, K-major (line * kp + k), with 0 for k from K to kp and for the
// values launch_line_max flags (whose lines the non-finite fix-up recomputes).
mm_status launch_residues(const OperandLines& op, OzakiOperand operand, const unsigned* max_bits, const int* bits,
                          int8_t* planes, int64_t kp, cudaStream_t stream);

// C (M x N, leading dimension ldc) from residues + l * M * N, each the product's residue modulo modulus l in
// [0, m) at (i * N + j): the integer product rebuilt in float64 and scaled back by the lines' powers of two
// (a_max_bits, b_max_bits as launch_line_max wrote them; bits[0] = alpha + beta).
mm_status launch_ozaki_rebuild(const uint8_t* residues, int M, int N, const unsigned* a_max_bits,
                               const unsigned* b_max_bits, const int* bits, float* C, int64_t ldc,
                               cudaStream_t stream);

}  // namespace gemm
