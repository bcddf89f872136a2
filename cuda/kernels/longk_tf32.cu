// longk_tf32: a long K over a small C on TF32 tensor cores, every SM a K slice, both operands read once as stored.
//
// Technique: the longk frame (core/kernel/warp_k_slices.cuh: a tile fitted to C, each of 8 warps its own share of
// every K slice through its own cp.async ring, operands kept as stored, the warps' and the slices' sums added in a
// fixed order in the same launch) with warp-level tensor cores: each warp holds the whole tile as m16n8 blocks and
// multiplies each ring stage with mma.sync m16n8k8, every value rounded to TF32 (to nearest) as its fragment leaves
// shared memory (core/mma/tf32_warp_sums.cuh). A long K over a small C reads both operands once and is bound by
// HBM; the FMA rungs reach that bound only on the smallest C, the tiled tensor-core kernels waste most of a 128-row
// tile on it and first pass over an operand to round or transpose it. Here nothing is copied but the ring's chunks.
// Each stage's products sum in a fresh accumulator that is added into fp32 totals in the CUDA cores, so no chain in
// the tensor cores is longer than a stage. Expected error: that of TF32 inputs (matmul_opt.tolerance("tf32", K)).
//
// Changes vs longk: mma.sync instead of FFMA, square tiles of 16, 32 and 64 (m16n8 blocks; 64 covers twice longk's
// largest side), one 4-byte shared load per fragment value (rows across k padded by 8 floats for the fragments'
// banks), and rings of 4 stages where a padded stage is larger.
//
// Parameters: 256 threads (8 warps), one block per SM; stages of 32, 16 or 8 k for tiles of 16, 32 or 64 (4 KB of
// operands before padding); slices at least 1024 k deep.
#include "core/mma/tf32_warp_sums.cuh"

mm_status launch_longk_tf32(const GemmArgs& g, cudaStream_t stream) {
    return gemm::warp_k::launch_tf32_warp_k<1>(g, stream);
}
