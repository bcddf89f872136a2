// One pass over an operand for what the Ozaki scheme needs to know before it cuts the operand into residues (host
// interface; the kernels are in line_survey.cu): each line's largest magnitude and whether it holds a value the
// scheme leaves to the non-finite fix-up (for the scaling, core/layout/residues.h), the sums of squares along k of
// groups of lines (for the scaling check, core/layout/scaling_check.h), and each line's sum of squares in pieces (for
// the scaling's bound on the integer product). One read gathers them all.
#pragma once

#include <cstdint>

#include "core/layout/residues.h"

namespace gemm {

// Where launch_line_survey puts an operand's sums of squares along k: `groups` rows of k partial sums, one per group
// of lines.
struct KSquares {
    double* partial;  // groups x k
    int64_t groups;
};

// Where it puts each line's sum of squares: `pieces` partial sums per line, each over a fixed part of its k, rounded
// up at every step (so that their sum, rounded up too, bounds the line's squared Euclidean norm from above).
struct LineSquares {
    double* partial;  // pieces x lines
    int64_t pieces;
};

// The groups of lines whose sums of squares along k launch_line_survey keeps apart, and the pieces of each line's
// own sum (functions of the shape alone, so that the sums, added in a fixed order, give the same bits every time).
int64_t k_squares_groups(const OperandLines& op);
int64_t line_square_pieces(const OperandLines& op);

// max_bits[line] = the bits of the largest magnitude below kOzakiLargeMagnitude in the line (non-negative floats
// order as their bits; 0 for a line of zeros) and flags[line] = 1 where the line holds an Inf, a NaN or a magnitude
// of kOzakiLargeMagnitude or more (both must hold 0 before); sums.partial[g * k + kk] = the sum over the lines of
// group g of op(X)(line, kk)^2, in double and in a fixed order; lines.partial[p * op.lines + line] = the sum of the
// line's squares over its piece p, rounded up; the flagged values count 0 in both.
mm_status launch_line_survey(const OperandLines& op, unsigned* max_bits, int* flags, const KSquares& sums,
                             const LineSquares& lines, cudaStream_t stream);

}  // namespace gemm
