// The pipelined configurations' cluster launchers (core/mainloop/cp_async_ffma_clusters.cuh), one per tile, in a
// translation unit apart from configs/pipelined.cu so that the kernels there keep the machine code they have alone.
#include "core/configs/pipelined_tiles.h"
#include "core/mainloop/cp_async_ffma_clusters.cuh"

namespace gemm::cp_async_ffma {

#define MM_CLUSTER_LAUNCHERS(tile)                                                                            \
    template mm_status clusters_fit<pipelined::tiles::tile>(const GemmArgs&, int, bool*);                    \
    template mm_status launch_cluster_slices<pipelined::tiles::tile>(const GemmArgs&, int, int, cudaStream_t);

MM_CLUSTER_LAUNCHERS(kTile128x256x16)
MM_CLUSTER_LAUNCHERS(kTile128x128x16)
MM_CLUSTER_LAUNCHERS(kTile128x64x16)
MM_CLUSTER_LAUNCHERS(kTile64x64x16)
MM_CLUSTER_LAUNCHERS(kTile32x128x16)
MM_CLUSTER_LAUNCHERS(kTile128x32x16)
MM_CLUSTER_LAUNCHERS(kTile64x128x16)

#undef MM_CLUSTER_LAUNCHERS

}  // namespace gemm::cp_async_ffma
