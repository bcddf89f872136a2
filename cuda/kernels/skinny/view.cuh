// The skinny kernel's parts that every mainloop shares (device): the problem as the kernel sees it (SkinnyView),
// the block's place in it, and the end of every block (write_sums). skinny.cu's header explains the view.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

namespace skinny {

constexpr int kThreads = 256, kWarps = kThreads / 32;
constexpr int kMinBlocksPerSm = 2;  // the occupancy __launch_bounds__ promises

// How the large operand X (K x L) is stored: X(k, l) at k * ldx + l (rows along L) or at l * ldx + k.
enum class XRows { kAlongL, kAlongK };
// How the small operand Y (S x K) is stored: Y(s, k) at s * ldy + k (rows along K) or at k * ldy + s.
enum class YRows { kAlongK, kAlongS };

// One launch: the product as the kernel sees it, where its slices go, and the lanes' shape.
struct SkinnyView {
    int S, L, K;
    const float* X;
    int64_t ldx;
    const float* Y;
    int64_t ldy;
    float* out;  // slice z's C(s, l) at out + z * slice_stride + s * out_s + l * out_l
    int64_t out_s, out_l, slice_stride;
    int k_per_slice;  // a multiple of 4
    // The blocks of a cluster (grid z, a slice each) add their sums in shared memory, in slice order, and write C
    // (slice_stride 0); else every block writes its slice's product.
    bool cluster_sum;
    int lane_quads;  // X along L: l-quads of a warp's lanes (a power of two); the rest of the lanes go along K
    // Y's rows are cut into s_groups groups of the kernel's rows, taken by neighbouring blocks (blockIdx.x: the
    // group fastest), which read the same piece of X at about the same time, from L2 after the first.
    int s_groups;
};

// This block's group of Y's rows and its block along L.
__device__ __forceinline__ int s_group(const SkinnyView& v) { return int(blockIdx.x) % v.s_groups; }
__device__ __forceinline__ int64_t column_block(const SkinnyView& v) { return int64_t(blockIdx.x) / v.s_groups; }


// This block's K range: its slice of K.
__device__ __forceinline__ void slice_range(const SkinnyView& v, int* k_begin, int* k_end) {
    const int64_t begin = int64_t(blockIdx.z) * v.k_per_slice;
    *k_begin = int(begin < v.K ? begin : v.K);
    *k_end = int(begin + v.k_per_slice < v.K ? begin + v.k_per_slice : v.K);
}


// The end of every block: its sums, sums[o] for the block's output o at (s, l) = at(o) (s past the block's group's
// first row), go to C or to the slice's product; a cluster first adds its blocks' sums in slice order, each block
// taking a share of the outputs.
template <int kRows, class At>
__device__ __forceinline__ void write_sums(const SkinnyView& v, float* sums, int outputs, At at) {
    const int s0 = s_group(v) * kRows;
    const auto store = [&](int o, float value) {
        int s = 0;
        int64_t l = 0;
        at(o, &s, &l);
        s += s0;
        if (s < v.S && l < v.L) v.out[int64_t(blockIdx.z) * v.slice_stride + s * v.out_s + l * v.out_l] = value;
    };
    if (!v.cluster_sum) {
        for (int o = threadIdx.x; o < outputs; o += kThreads) store(o, sums[o]);
        return;
    }
#if __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    const cg::cluster_group cluster = cg::this_cluster();
    const int ranks = int(cluster.num_blocks()), rank = int(cluster.block_rank());  // rank = slice along z
    cluster.sync();
    for (int o = rank * kThreads + threadIdx.x; o < outputs; o += ranks * kThreads) {
        float sum = 0.f;
        for (int r = 0; r < ranks; ++r) sum += cluster.map_shared_rank(sums, r)[o];
        store(o, sum);
    }
    cluster.sync();  // no block leaves while another still reads its sums
#endif
}


}  // namespace skinny
