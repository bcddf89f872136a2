// wgmma_tf32's tuning hook (host): a process-wide override of its tile width, its K-major transposed path and its
// split tails, for the tuner, the tests that reach every width and path, and measurements against the rule.
#pragma once

namespace wgmma_tf32 {

// True for the widths the kernel has tiles of (8, 16, 24, 32, 64, 128 and 256 columns).
bool is_width(int width);

// width: a tile width for every product (0: the rule's); k_major_transpose: whether a B stored N x K may be read as
// stored, in C's transpose (false: it is rounded into a copy instead, as for a B the copy engine cannot take);
// split_tail: whether a ragged last wave's tiles may go in K pieces (gemm::split_tail's model decides).
void force(int width, bool k_major_transpose, bool split_tail);

}  // namespace wgmma_tf32
