// longk_3xtf32: fp32 accuracy for a long K over a small C on TF32 tensor cores (3xTF32), every SM a K slice.
//
// Technique: longk_tf32's kernel (core/kernel/warp_k_slices.cuh with core/mma/tf32_warp_sums.cuh) with each value
// split as it leaves shared memory into big + small TF32 parts (big = tf32(x), small = tf32(x - big), within 2^-22
// of x) and three MMAs per step, small·big + big·small + big·big; the small·small term, at most 2^-22 of the
// product, is dropped. The split happens in registers, so the operands are read once as stored: no pass writes split
// copies, which is what makes wgmma_3xtf32 slow on this shape (its passes cost as much as the product). Each stage's
// products sum in a fresh accumulator, added into fp32 totals in the CUDA cores (promotion every stage: 8 to 32 k),
// and K is cut into at least one slice per SM and into eight per slice, one per warp, so the fp32 sums are short
// chains. Held to the fp32 tolerance.
//
// Changes vs longk_tf32: the split instead of the rounding, three MMAs per step instead of one.
//
// Parameters: as longk_tf32's (tiles of 16, 32 or 64; 256 threads; slices at least 1024 k deep).
#include "core/mma/tf32_warp_sums.cuh"

mm_status launch_longk_3xtf32(const GemmArgs& g, cudaStream_t stream) {
    return gemm::warp_k::launch_tf32_warp_k<3>(g, stream);
}
