// longk_tf32: a long K over a small C on TF32 tensor cores, every SM a K slice, both operands read once as stored.
//
// Technique: the longk frame (core/kernel/warp_k_slices.cuh: a tile fitted to C, each of 8 warps its own share of
// every K slice through its own cp.async ring, operands kept as stored, the warps' and the slices' sums added in a
// fixed order in the same launch) with warp-level tensor cores: each warp holds the whole tile as m16n8 blocks and
// multiplies each ring stage with mma.sync m16n8k8, every value rounded to TF32 (to nearest) as its fragment leaves
// shared memory (core/mma/tf32_warp_sums.cuh). A long K over a small C reads both operands once and is bound by
// HBM; the FMA rungs' multiply-adds keep up with it only on the smallest C, and the tiled tensor-core kernels waste
// most of a 128-row tile on it and first pass over an operand to round or transpose it. Here nothing is copied but
// the ring's chunks. Expected error: that of TF32 inputs (matmul_opt.tolerance("tf32", K)); slices are cut so that
// no warp's chain is longer than gemm::kTf32MaxChainK.
//
// Changes vs longk: mma.sync instead of FFMA, square tiles of 16, 32 and 64 (m16n8 blocks; 64 covers twice longk's
// largest side), one 4-byte shared load per fragment value (rows across k padded by 8 floats for the fragments'
// banks), and rings of 4 stages where a padded stage is larger.
//
// Parameters: 256 threads (8 warps), one block per SM; tiles of 16, 32 or 64 (the least that covers C's larger side,
// else 64); stages of 32, 16 or 8 k (4 KB of operands before padding); slices at least 1024 k deep, and at most
// 8 x gemm::kTf32MaxChainK.
#include "kernels/longk_tf32.h"

#include "core/mma/tf32_warp_sums.cuh"

namespace {

constexpr char kName[] = "longk_tf32";
using LongkTf32 = gemm::warp_k::Rung<gemm::warp_k::Tf32Math, kName, longk_tf32::TileSides>;

}  // namespace

// Registry entry point: K slices, one block per SM over C's tiles, and enough that no warp's chain is longer than
// gemm::kTf32MaxChainK.
mm_status launch_longk_tf32(const GemmArgs& g, cudaStream_t stream) {
    return LongkTf32::run(g, gemm::tf32_chain_splits(g.K, gemm::warp_k::kWarps), stream);
}
