// longk_tf32: a long K over a small C on TF32 tensor cores, every SM a K slice, both operands read once as stored.
//
// Technique: the longk frame (core/kernel/warp_k_slices.cuh: a tile fitted to C, every block a K slice of it,
// operands kept as stored, the warps' and the slices' sums added in a fixed order in the same launch) with
// warp-level tensor cores (core/mma/tf32_warp_sums.cuh): the block's 8 warps share one cp.async ring whose stage
// holds the block's piece of K in whole lines of both operands; each warp multiplies its part of the tile (at most
// 64 x 64, as m16n8 blocks) over its group's share of the piece with mma.sync m16n8k8, every value rounded to TF32
// (to nearest) as its fragment leaves shared memory. A long K over a small C reads both operands once and is bound
// by HBM; the FMA rungs' multiply-adds keep up with it only on the smallest C, and the tiled tensor-core kernels
// waste most of a 128-row tile on it and first pass over an operand to round or transpose it. Here nothing is
// copied but the ring's chunks. Expected error: that of TF32 inputs (matmul_opt.tolerance("tf32", K)); slices are
// cut so that no warp's chain is longer than gemm::kTf32MaxChainK.
//
// Changes vs longk: mma.sync instead of FFMA; one ring per block (a block barrier per stage) rather than one per
// warp, so that every copy reads whole lines; tiles up to 128 x 128, whose warps split the tile as well as K, so
// that a C of up to 128 x 128 reads each operand once; one 4-byte shared load per fragment value (rows across k
// padded by 8 floats for the fragments' banks).
//
// Parameters: 256 threads (8 warps), one block per SM; tiles of 16, 32 or 64 square (8 groups of one warp along k),
// 64 x 128 or 128 x 64 (4 groups of 2) and 128 x 128 (2 groups of 4), chosen by Tiles below; stages of 16 KB of the
// larger operand's tile below 64 (256 k at 16, 128 at 32; 4 and 5 stages) and 32 KB from 64 up (128 k at 64, 64 at
// 128; 3 stages); slices at least 1024 k deep, and at most a group count times gemm::kTf32MaxChainK.
#include "core/kernel/warp_k_tiles.h"
#include "core/mma/tf32_warp_sums.cuh"

namespace {

// Square tiles of 16, 32 or 64, the least that covers C, else 64; or, where C passes 64, 128 along each side of C
// past 64 and 64 along a side within it, where that costs a block less: what a block does per k of its slice is
// its tile's multiply-adds and its tile's rows and columns streamed, each row or column weighed as kStreamCost
// multiply-adds, and fewer, larger tiles take deeper slices each but read each operand fewer times.
struct Tiles {
    using Shapes = gemm::warp_k::TileList<gemm::warp_k::TileShape<16, 16>, gemm::warp_k::TileShape<32, 32>,
                                          gemm::warp_k::TileShape<64, 64>, gemm::warp_k::TileShape<64, 128>,
                                          gemm::warp_k::TileShape<128, 64>, gemm::warp_k::TileShape<128, 128>>;
    static constexpr int kStreamCost = 100;

    static gemm::warp_k::TileChoice of(const GemmArgs& g, int sms) {
        const gemm::warp_k::TileChoice square = gemm::warp_k::SquareTiles<16, 32, 64>::of(g, sms);
        if (g.M <= 64 && g.N <= 64) return square;
        const gemm::warp_k::TileChoice wide{g.M > 64 ? 128 : 64, g.N > 64 ? 128 : 64};
        return cost(wide, g, sms) < cost(square, g, sms) ? wide : square;
    }

  private:
    // A block's work over its slice, per k of K.
    static double cost(gemm::warp_k::TileChoice tile, const GemmArgs& g, int sms) {
        const double per_k = double(tile.rows) * tile.cols + double(kStreamCost) * (tile.rows + tile.cols);
        return per_k / gemm::warp_k::slices_for(tile.tiles(g), g.K, sms);
    }
};

constexpr char kName[] = "longk_tf32";
using LongkTf32 = gemm::warp_k::Rung<gemm::warp_k::Tf32Math, kName, Tiles>;

}  // namespace

// Registry entry point: K slices, one block per SM over C's tiles, and enough that no warp's chain is longer than
// gemm::kTf32MaxChainK.
mm_status launch_longk_tf32(const GemmArgs& g, cudaStream_t stream) {
    return LongkTf32::run(g, &gemm::tf32_chain_splits, stream);
}
