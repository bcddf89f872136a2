// Configurations: named fields, never positional lists.
//
// FfmaTile is plain data that the FFMA kernels take as a template argument (C++20 class-type template
// parameter), so every field is a compile-time constant in the kernel. ConfigDesc is the one description of a
// launchable configuration of any kernel family, as dispatchers (best) and the tuner see it; launch_config is
// the one way to run one (host only).
#pragma once

#include "core/problem.h"

namespace gemm {

struct BlockShape {
    int m, n;  // the block's tile of C
    int k;     // the K depth of one pipeline stage
};

struct WarpShape {
    int m, n;  // one warp's share of the block tile
};

// The order of one k's FMAs in the FFMA warp tile (core/mma/ffma_warp_tile.cuh says what each is). The sums
// are identical; the order changes how nvcc allocates registers and schedules the FFMA stream.
enum class FmaOrder { kRows, kSerpentine, kBlocks2x4 };

// How a kernel's block tile reaches C (core/epilogue/): each thread's float4 stores straight to C, or through
// shared memory.
enum class Epilogue { kDirect, kStaged };

// A configuration of the FFMA warp-tiled mainloops.
struct FfmaTile {
    BlockShape block;
    WarpShape warp;
    int stages;             // shared-memory stages in flight
    int k_unroll = 0;       // k steps per unrolled loop body; 0: one straight body per stage (block.k)
    FmaOrder fma_order;
    int min_blocks_per_sm;  // the occupancy the kernel's __launch_bounds__ promise

    __host__ __device__ constexpr int k_body() const { return k_unroll == 0 ? block.k : k_unroll; }
    __host__ __device__ constexpr int warps_m() const { return block.m / warp.m; }
    __host__ __device__ constexpr int warps_n() const { return block.n / warp.n; }
    __host__ __device__ constexpr int threads() const { return 32 * warps_m() * warps_n(); }
};

// An FfmaTile as a type, for __global__ function templates: nvcc's host-side kernel stubs cannot spell a
// class-type template argument of a kernel, so kernels take their configuration through this wrapper.
template <FfmaTile kTile>
struct FfmaTileType {
    static constexpr FfmaTile value = kTile;
};

// A launchable configuration of any family.
struct ConfigDesc {
    const char* name;  // the stable identity: best's table and the tuner name configurations by it
    BlockShape block;
    int blocks_per_sm;  // resident blocks per SM (the split-K schedule counts slots with it)
    bool splits_k;  // launch's `splits` runs K slices (split-K); otherwise can_run accepts only splits = 1
    // Whether this configuration itself can run g over `splits` K slices here; null: always.
    bool (*can_run)(const GemmArgs& g, int splits);
    // Enqueues C = A·B over `splits` K slices (1: the plain product) on `stream`.
    mm_status (*launch)(const GemmArgs& g, int splits, cudaStream_t stream);
    // What runs instead where can_run says no (for the bulk-copy families, the cp.async kernel of the same tile).
    const ConfigDesc* fallback;
    // Whether it reads B stored N x K (op_b = T) as stored at no extra cost. A tiled configuration would transpose
    // both tiles in shared memory at every k-step, and best gives it B transposed by one pass over B first.
    bool reads_op_t_b = false;
    // Whether its blocks share the last wave's work out by K (stream-K): its time follows its tiles, not whole
    // waves of them.
    bool shares_last_wave = false;
    // Whether streaming operands or C, not the FMAs of its tiles, sets its time (the kernels for a small side, a
    // short K, a long K over a small C): best's ragged-edge rule, a model of padded tiles, leaves it alone.
    bool streams = false;
};

// The description of a configuration of FfmaTile kTile.
template <FfmaTile kTile>
constexpr ConfigDesc describe(const char* name, bool splits_k, bool (*can_run)(const GemmArgs&, int),
                              mm_status (*launch)(const GemmArgs&, int, cudaStream_t), const ConfigDesc* fallback) {
    return {name, kTile.block, kTile.min_blocks_per_sm, splits_k, can_run, launch, fallback};
}

// Output tiles of g in `block` tiles.
inline int64_t output_tiles(const GemmArgs& g, BlockShape block) {
    return int64_t(tiles_of(g.M, block.m)) * tiles_of(g.N, block.n);
}

// Runs `config`, or the first configuration down its fallback chain that can run g over `splits` slices.
inline mm_status launch_config(const ConfigDesc& config, const GemmArgs& g, int splits, cudaStream_t stream) {
    const ConfigDesc* c = &config;
    while (c->can_run != nullptr && !c->can_run(g, splits)) {
        if (c->fallback == nullptr) return mm_fail(MM_ERR_UNAVAILABLE, "%s cannot run here and has no fallback", c->name);
        c = c->fallback;
    }
    return c->launch(g, splits, stream);
}

}  // namespace gemm
