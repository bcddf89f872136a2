// splitk: the pipelined kernel over K slices plus a deterministic reduction, for K >> M, N.
//
// Technique: when M x N yields fewer output tiles than SMs (256x256 is 16 tiles of 64x64 on 132 SMs), the plain
// kernel leaves most of the GPU idle however large K is. Split-K gives each of `splits` blocks per tile a
// contiguous slice of the K tiles; each writes its partial tile to its own slab of a workspace, and a second
// kernel sums the slabs in slice order into C. No atomics: the sum order is fixed, so results are bitwise
// reproducible run to run. A tile of at most 8 slices whose clusters all run at once has its slices added by their
// thread block cluster instead, in shared memory and in the same order (core/epilogue/cluster_sum.cuh): the same
// bits, with no workspace and no second kernel. Long-K products cut K into more slices than that and take the
// workspace.
//
// Composition: pipelined's kernel (its 64x64x16 configuration: the most tiles per output, so the fewest splits)
// under the split-K schedule (core/schedule/split_k.h: the slice count, the workspace from the library's
// workspace pool, stream-ordered) and the reduction epilogue (core/epilogue/split_k_reduce.h).
//
// Changes vs pipelined: the K-slice grid dimension, the workspace and the reduction (op = T operands are read as
// stored, as by pipelined).
#include "core/configs/pipelined.h"
#include "core/device.h"
#include "core/schedule/split_k.h"

// Registry entry point: shapes whose tiles already fill the GPU (or with short K) run unsplit.
mm_status launch_splitk(const GemmArgs& g, cudaStream_t stream) {
    const gemm::ConfigDesc& config = pipelined::k64x64x16;
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int splits = gemm::choose_splits(gemm::output_tiles(g, config.block), g.K, sms, config.blocks_per_sm);
    return gemm::launch_config(config, g, splits, stream);
}
