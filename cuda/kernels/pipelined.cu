// pipelined: a multi-stage cp.async pipeline around the warp-tiled micro-kernel, the fifth rung.
//
// Technique: the warptile compute (K-major A and B in shared memory, warp tiles of 4x4 fragments,
// register double-buffered) fed by a ring of `stages` shared-memory tiles filled with cp.async: global -> shared
// without passing through registers, so the copies of the next stages - 1 tiles are in flight while this one
// is multiplied, and no registers are spent on staging (the budget goes to bigger per-thread tiles: 8x16). One
// barrier per K tile.
//
// Composition: the kernel is core/mainloop/cp_async_ffma.cuh: copy/cp_async_tile.cuh on pipeline/cp_async_ring.cuh,
// mma/ffma_warp_tile.cuh; schedule: data-parallel, one block per tile rasterised in bands of tile rows
// (schedule/raster.cuh), optionally over K slices (schedule/split_k.h, grid dimension z); epilogue: direct
// (epilogue/direct_store.cuh), into C or into a slice of the split-K workspace, or the slices of a tile added up
// within their thread block cluster (epilogue/cluster_sum.cuh, mainloop/cp_async_ffma_clusters.cuh). Its
// configurations (the tiles) are core/configs/pipelined.cu, which splitk, tma, streamk, skinny and best run too.
//
// Changes vs warptile: cp.async instead of ld.global + st.shared; 3+ stages instead of 2; dynamic shared memory;
// the tile as a template argument with several configurations (big tiles for big squares, small ones so small
// shapes still fill the GPU); blocks rasterised in bands for L2 reuse; K slices for splitk and best; every op
// combination taken as stored: each configuration is instantiated per layout of A and B, whose tile copies
// (copy/cp_async_tile.cuh) transpose whichever operand is stored with K across its rows.
//
// Model: a K tile moves (BM+BN)*BK*4 bytes for 2*BM*BN*BK FLOP: 128x256 -> 42.7 FLOP/B, 128x128 -> 32,
// 128x64 -> 21.3, 64x64 -> 16. Per k a thread does FM+FN LDS.128 for 16*FM*FN FMAs (8x16: 6 per 128). Shared
// memory per block: stages*BK*((BM+4) + BN)*4 bytes.
#include "core/configs/pipelined.h"

// Registry entry point: the 128x128 configuration alone (choosing per shape is `best`'s job).
mm_status launch_pipelined(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(pipelined::k128x128x16, g, 1, stream);
}
