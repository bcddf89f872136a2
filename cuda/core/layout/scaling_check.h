// The Ozaki scheme's scaling (its bits, from the lines' norms: core/layout/residues.h) and whether it carries a product
// at fp32 accuracy, decided on the GPU from statistics of the operands that the passes gather (host interface; the
// kernels are in scaling_check.cu).
//
// Each value of a line is rounded to a multiple of 2^(e - bits) (core/layout/residues.h: e the line's exponent,
// bits alpha for the rows of op(A) and beta for the columns of op(B)), an error of at most u = 2^(e - bits - 1).
// Taken as independent and uniform, the errors add up over C to
//     ||E||_F^2 = (sum_i u_i^2 ||op(B)||_F^2 + sum_j v_j^2 ||op(A)||_F^2) / 3,
// while the contract's error scale (matmul_opt.accuracy.error_scale, the root-sum-square of each element's terms)
// has ||S||_F^2 = sum_k ||op(A)(:, k)||^2 ||op(B)(k, :)||^2. rho = ||E||_F / ||S||_F is the scheme's relative error
// before C's last rounding. The scheme fails where a line's largest values sit far above the values that decide C,
// which then round away: an operand scaled by a diagonal that the other undoes (a spread of a few octaves already
// breaks the contract), or a row [1, 2^-40] against a column [2^-40, 1]. The scheme carries a product where rho is at
// most fp32_error_floor(K), so that C's error stays near what fp32 arithmetic gives; elsewhere ozaki_int8 computes it
// another way (docs/experiments/2026-12-04-ozaki-guard.md: rho against the emulated error, and the inputs each side of
// the bound). Where C is large enough that cuBLAS fp32 sums each output's K in one chain, whose error is larger than
// that of the shallow slices it sums a smaller C in, a product may drop a modulus: it takes kOzakiFewestModuli where
// rho with them is within fp32_chain_error_bound(K) (docs/experiments/2026-12-05-ozaki-seven-moduli.md).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/layout/line_survey.h"

namespace gemm {

// A model of the least relative error (matmul_opt.accuracy.relative_error) that cuBLAS fp32 shows over the report's
// input kinds at depth k: about C's own rounding up to k = 16, growing as a power of k beyond (fitted to the
// report's accuracy tables in the guard record).
__host__ __device__ inline double fp32_error_floor(double k) {
    return 2.3e-8 * (k > 16.0 ? pow(k / 16.0, 0.277) : 1.0);
}

// rho from the statistics: u2 = sum_i u_i^2, v2 = sum_j v_j^2, a_total = ||op(A)||_F^2, b_total = ||op(B)||_F^2 and
// scale = ||S||_F^2; 0 where scale is 0, since every term of C then has an exact zero factor and C is exactly zero.
__host__ __device__ inline double ozaki_error_estimate(double u2, double v2, double a_total, double b_total,
                                                       double scale) {
    return scale > 0.0 ? sqrt((u2 * b_total + v2 * a_total) / 3.0 / scale) : 0.0;
}

// Whether the scheme's own error rho, at depth k, leaves C within fp32 accuracy.
__host__ __device__ inline bool ozaki_carries(double rho, double k) { return rho <= fp32_error_floor(k); }

// From this many outputs of C per SM cuBLAS fp32 sums each output's K in one chain of FMAs: the smallest C whose
// cuBLAS errors the seven-moduli record matched to one chain, over the SMs of the GPU they were measured on.
inline constexpr double kChainOrderMinOutputsPerSm = 4096.0 * 4096.0 / 132.0;

// A bound on the scheme's error where cuBLAS fp32 sums K in one chain: twice (the contract's allowance on magnitudes
// spread over 2^+-40) a model of the least error of such a chain over the contract's input kinds, which grows as
// sqrt(k) (fitted to the emulated chain in the seven-moduli record).
__host__ __device__ inline double fp32_chain_error_bound(double k) { return 7.7e-9 * sqrt(k); }

// The moduli a product takes, from rho with the fewest and with all of them: kOzakiFewestModuli where cuBLAS sums K
// in one chain (chain_order) and they keep rho within fp32_chain_error_bound; else kOzakiModuli where they carry it;
// else 0, for a product the scheme does not carry.
__host__ __device__ inline int ozaki_moduli_count(double rho_fewest, double rho_all, double k, bool chain_order) {
    if (chain_order && rho_fewest <= fp32_chain_error_bound(k)) return kOzakiFewestModuli;
    return ozaki_carries(rho_all, k) ? kOzakiModuli : 0;
}

// The doubles launch_scaling_check's block_sums needs.
int64_t scaling_check_doubles();

// What the check reads of one operand, as launch_line_survey wrote it: its lines' maxima, the sums of squares along k
// of groups of them, and each line's own sum of squares in pieces.
struct LineStatistics {
    const unsigned* max_bits;
    int64_t lines;
    KSquares squares;
    LineSquares line_squares;
};

// The scaling's bits, then the verdict: bits[scaling_bits_index(count)] = alpha + beta for each count of moduli, the
// largest sum, at most 62, whose Cauchy-Schwarz bound on the integer product (from each operand's largest
// ||x|| / 2^e over its lines, e the line's exponent, each line's rounding at depth k added) stays under the moduli's
// product M / 2, alpha its larger half; and moduli[0] =
// ozaki_moduli_count for the product, with rho for each count from its bits. block_sums holds
// scaling_check_doubles() doubles of workspace.
mm_status launch_scaling_check(const LineStatistics& a, const LineStatistics& b, int64_t k, bool chain_order,
                               double* block_sums, int* bits, int* moduli, cudaStream_t stream);

}  // namespace gemm
