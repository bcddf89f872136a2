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
// alpha + beta is chosen from the largest ||x|| / 2^e of each operand (launch_line_survey, launch_scaling_check): at
// most K 2^(alpha + beta) for lines of equal magnitudes, as the worst case, and about 2^(alpha + beta) for lines
// that one value dominates, such as magnitudes spread over many octaves, which so keep far more bits.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/problem.h"

namespace gemm {

// The most moduli a product uses, and the fewest: a product runs with the first kOzakiFewestModuli of them where
// that keeps it within fp32 accuracy (core/layout/scaling_check.h), each modulus one INT8 product.
inline constexpr int kOzakiModuli = 8;
inline constexpr int kOzakiFewestModuli = kOzakiModuli - 1;

// Pairwise coprime, at most 256: 256, 255 = 3 * 5 * 17, 253 = 11 * 23, 247 = 13 * 19 and primes; their product is
// about 2^63.6. The power of two comes first: a value's symmetric residue modulo 256 is its low byte.
inline constexpr int kOzakiModulusValues[kOzakiModuli] = {256, 255, 253, 251, 247, 241, 239, 233};

// Magnitudes from here up (2^64) are left to the fix-up with Inf and NaN: a product of two of them leaves the fp32
// range, where NumPy's answer depends on the order of its sums, and one such value in a line takes the line's
// scale so far above its other values that they round away.
inline constexpr float kOzakiLargeMagnitude = 18446744073709551616.0f;

// Whether x is left to the fix-up: an Inf or NaN, or a magnitude of kOzakiLargeMagnitude or more.
__host__ __device__ inline bool uncarried(float x) { return !(fabsf(x) < kOzakiLargeMagnitude); }

// A modulus m and the constants with which the passes reduce by it through multiplications (a division by a
// modulus known only at run time costs about twenty instructions).
struct OzakiModulus {
    int m;
    int two16;                  // 2^16 mod m
    unsigned magic;             // ceil(2^32 / m): the multiply-high quotient's factor
    unsigned minus_m;           // 2^32 - m: u - q m as one multiply-add, u + q (2^32 - m) modulo 2^32
    int half;                   // (m - 1) / 2: symmetric residues lie in [-half, m - 1 - half]
    int lift;                   // (half - 2^31 mod m) mod m: symmetric_residue's offset
    unsigned long long weight;  // round(2^64 inverse / m), inverse that of M / m modulo m (M the moduli's product)
};

// A set of the first moduli (kOzakiModuli or kOzakiFewestModuli of them) and their product M; passed to kernels by
// value. The entries past the set hold the other moduli with weight 0: the residue pass takes their reduction
// constants, and crt_fraction over every modulus gives the set's sum.
struct OzakiModuli {
    OzakiModulus modulus[kOzakiModuli];
    double product;  // M, rounded to double
};
// count is kOzakiModuli or kOzakiFewestModuli.
const OzakiModuli& ozaki_moduli(int count);

__host__ __device__ inline unsigned multiply_high(unsigned a, unsigned b) {
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return unsigned((uint64_t(a) * b) >> 32);
#endif
}

// x mod m in [0, m), for any int32 x: x = hi 2^16 + lo, hi 2^16 is hi (2^16 mod m) modulo m, and m 2^16 added keeps
// the sum positive and under 2^25, where the multiply-high quotient by ceil(2^32 / m) is the true quotient or one more.
__host__ __device__ inline int residue_of(int x, const OzakiModulus& mod) {
    const unsigned u = unsigned((x >> 16) * mod.two16 + (mod.m << 16)) + (unsigned(x) & 0xffffu);
    const unsigned q = multiply_high(u, mod.magic);
    const int r = int(u - q * unsigned(mod.m));
    return r < 0 ? r + mod.m : r;
}

// A scaled integer x in [-2^31, 2^31] as the residue passes take it: x + 2^31 = lifted 2^16 + lo, lifted in
// [0, 2^16] and lo in [0, 2^16) (x's low 16 bits).
struct LiftedInteger {
    unsigned lifted;
    unsigned lo;
};

__host__ __device__ inline LiftedInteger lift(long long x) {
    return {unsigned(int(x >> 16) + (1 << 15)), unsigned(x) & 0xffffu};
}

// x's residue in [-half, m - 1 - half], m any modulus but 256: u = lifted (2^16 mod m) + lo + lift is congruent to
// x + half and under 2^24, and ceil(2^32 / m) m exceeds 2^32 by less than 2^8, so the multiply-high quotient is u's
// exact one.
__host__ __device__ inline int symmetric_residue(const LiftedInteger& x, const OzakiModulus& mod) {
    const unsigned u = x.lifted * unsigned(mod.two16) + x.lo + unsigned(mod.lift);
    const unsigned q = multiply_high(u, mod.magic);
    return int(u + q * mod.minus_m) - mod.half;
}

// x's symmetric residue modulo modulus l, as the low byte of its two's complement: modulo 256 (the first modulus)
// that is x's own low byte, in [-128, 128); modulo the others symmetric_residue.
__host__ __device__ inline unsigned residue_byte(const LiftedInteger& x, int l, const OzakiModuli& moduli) {
    static_assert(kOzakiModulusValues[0] == 256, "the first modulus's residues are the low bytes");
    return (l == 0 ? x.lo : unsigned(symmetric_residue(x, moduli.modulus[l]))) & 0xffu;
}

// The integer product from its residues r_l in [0, m_l) modulo the set's moduli (0 past them), as a signed
// fraction of 2^64 of M: the Chinese remainder theorem gives C_int / M = sum over l of r_l inverse_l / m_l modulo 1,
// and the sum of r_l weight_l modulo 2^64 is that times 2^64 within r_l / 2 per term, so for |C_int| < M / 2 (the
// scaling keeps it there with a margin far above the error) C_int = crt_fraction 2^-64 M within 2^-54 M. The sum
// runs over the kCount residues given, those of the first kCount moduli (the set's, or all of them: the others
// weigh 0), as the products with each weight's low word (64-bit sums) plus those with its high word (32-bit sums,
// shifted): one multiply-add each.
template <int kCount>
__host__ __device__ inline long long crt_fraction(const unsigned (&residues)[kCount], const OzakiModuli& moduli) {
    static_assert(kCount <= kOzakiModuli, "at most every modulus");
    unsigned long long low = 0;
    unsigned high = 0;
    for (int l = 0; l < kCount; ++l) {
        const unsigned long long weight = moduli.modulus[l].weight;
        low += (unsigned long long)residues[l] * unsigned(weight);
        high += residues[l] * unsigned(weight >> 32);
    }
    return (long long)(low + ((unsigned long long)high << 32));
}

// 2^e as a double, exactly, for e within the double exponent's normal range (a multiplication by it is exact where
// ldexp would call a function that handles every range).
__device__ __forceinline__ double power_of_two(int e) { return __longlong_as_double((long long)(e + 1023) << 52); }

// e with max |x| < 2^e (frexp's exponent) for the line whose largest magnitude has these bits, 0 for a line of zeros;
// a subnormal largest magnitude is max_bits 2^-149, of as many significant bits as max_bits has. Selects rather than
// branches: the rebuild takes it for every element.
__host__ __device__ inline int line_exponent(unsigned max_bits) {
#ifdef __CUDA_ARCH__
    const int width = 32 - __clz(int(max_bits));
#else
    const int width = max_bits == 0 ? 0 : 32 - __builtin_clz(max_bits);
#endif
    const int subnormal = max_bits == 0 ? 0 : width - 149;
    return max_bits >= 0x800000u ? int(max_bits >> 23) - 126 : subnormal;
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

// The element of the scaling's bits (launch_scaling_check, core/layout/scaling_check.h) that holds alpha + beta for
// `count` moduli.
__host__ __device__ inline int scaling_bits_index(int count) { return kOzakiModuli - count; }

// The bits of one operand's lines from the scaling's sum: alpha for A, beta for B.
enum class OzakiOperand { kA, kB };

// K of each residue row, kp, is a multiple of this (the rows padded with zeros): the copy engine's row pitch is a
// multiple of 16 bytes, and the residue pass stores 16 k at a time along lines stored as rows. This is the passes'
// least; ozaki_int8 pads kp further, to whole K tiles of its product, so that its copies' box rows lie on lines.
inline constexpr int kOzakiKAlign = 16;

// For each of the first count = *verdict moduli l (the scaling check's verdict, read on the GPU, so that the passes
// can be enqueued before the host knows it; 0 writes nothing): planes + l * lines * kp holds the line's values scaled
// to its operand's bits for that count (launch_scaling_check's bits, max_bits) and reduced to symmetric residues
// modulo the modulus, K-major (line * kp + k), with 0 for k from K to kp and for the values launch_line_survey flags
// (whose lines the non-finite fix-up recomputes). planes, on 16 bytes, has room for kOzakiModuli planes.
mm_status launch_residues(const OperandLines& op, OzakiOperand operand, const unsigned* max_bits, const int* bits,
                          const int* verdict, int8_t* planes, int64_t kp, cudaStream_t stream);

// The row pitch of the product's residue matrices (one byte per element of C): N rounded up to a multiple of 4, so
// that every row starts on a 4-byte word and the product's epilogue and the rebuild move 4 residues at a time
// whatever N is.
__host__ __device__ inline int64_t ozaki_product_pitch(int N) { return (int64_t(N) + 3) / 4 * 4; }

// C (M x N, leading dimension ldc) from residues + l * M * ozaki_product_pitch(N) for each of the first moduli_count
// moduli l, the product's residue modulo modulus l in [0, m) at (i * pitch + j): the integer product rebuilt by
// crt_fraction and scaled back by the lines' powers of two (a_max_bits, b_max_bits as launch_line_survey wrote them;
// bits as launch_scaling_check did).
mm_status launch_ozaki_rebuild(const uint8_t* residues, int moduli_count, int M, int N, const unsigned* a_max_bits,
                               const unsigned* b_max_bits, const int* bits, float* C, int64_t ldc,
                               cudaStream_t stream);

}  // namespace gemm
