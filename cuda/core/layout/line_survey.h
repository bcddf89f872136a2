// One pass over an operand for what the Ozaki scheme needs to know before it cuts the operand into residues (host
// interface; the kernels are in line_survey.cu): each line's largest magnitude and whether it holds a value the
// scheme leaves to the non-finite fix-up (for the scaling, core/layout/residues.h), and the sums of squares along k
// of groups of lines (for the scaling check, core/layout/scaling_check.h). One read gathers both.
#pragma once

#include <cstdint>

#include "core/layout/residues.h"

namespace gemm {

// Where launch_line_survey puts an operand's sums of squares: `groups` rows of k partial sums, one per group of lines.
struct KSquares {
    double* partial;  // groups x k
    int64_t groups;
};

// The groups of lines whose sums of squares launch_line_survey keeps apart (a function of the shape alone, so that
// the sums, added in a fixed order, give the same bits every time); KSquares::partial holds groups x k doubles.
int64_t k_squares_groups(const OperandLines& op);

// max_bits[line] = the bits of the largest magnitude below kOzakiLargeMagnitude in the line (non-negative floats
// order as their bits; 0 for a line of zeros) and flags[line] = 1 where the line holds an Inf, a NaN or a magnitude
// of kOzakiLargeMagnitude or more (both must hold 0 before); sums.partial[g * k + kk] = the sum over the lines of
// group g of op(X)(line, kk)^2, in double and in a fixed order, the flagged values counting 0.
mm_status launch_line_survey(const OperandLines& op, unsigned* max_bits, int* flags, const KSquares& sums,
                             cudaStream_t stream);

}  // namespace gemm
