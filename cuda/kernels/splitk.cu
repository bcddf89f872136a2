// splitk: the pipelined kernel over K slices plus a deterministic reduction, for K >> M, N.
//
// Technique: when M x N yields fewer output tiles than SMs (256x256 is 16 tiles of 64x64 on 132 SMs), the
// plain kernel leaves most of the GPU idle however large K is. Split-K gives each of `splits` blocks per
// tile a contiguous slice of the K tiles (blockIdx.z, pipelined.cu); each writes its partial tile to its own
// slab of a workspace (splits x M x ldw floats, ldw = N rounded up to 4 so every workspace row is float4
// aligned), and a second kernel sums the slabs in slice order into C. No atomics: the sum order is fixed, so
// results are bitwise reproducible run to run.
//
// Changes vs pipelined: a K-slice grid dimension, a workspace (DeviceBuffer from the library's workspace pool,
// allocated and freed on the caller's stream: no device-wide synchronisation, and the pool keeps the memory
// mapped between calls), and the reduction.
// Tiles: any pipelined config; launch_splitk uses 64x64x16 (most tiles per output, so the fewest splits).
// Model: the extra traffic is 2 x splits x M x N x 4 bytes (workspace write + read) against
// 2 x M x N x K FLOP, i.e. 4 x splits / K bytes per FLOP; choose_splits keeps every slice >= min_slice_k
// deep, so that is at most 4 / min_slice_k (1/64 B/FLOP at 256), small next to the operand traffic.
// The reduction: one thread per 4 consecutive outputs, float4 workspace reads, grid-stride over M x N/4.
#include "../device_buffer.h"
#include "best_table.h"
#include "device_props.cuh"
#include "pipelined.cuh"
#include "splitk.cuh"
#include "tile_io.cuh"

namespace {

constexpr int kReduceThreads = 256;

// C[row][col..col+3] = sum over z of ws[z][row][col..col+3]. The workspace is 16-byte aligned by
// construction (cudaMallocAsync alignment, ldw and the slab stride multiples of 4), so only the last,
// partial quad of a row needs scalar reads, which also keeps the never-written padding columns unread.
template <bool kAlignedC>
__global__ void __launch_bounds__(kReduceThreads)
    splitk_reduce_kernel(const float* __restrict__ ws, int64_t ldw, int64_t slab, int splits, int M, int N,
                         float* __restrict__ C, int64_t ldc) {
    const int64_t quads = (int64_t(N) - 1) / 4 + 1;
    const int64_t total = int64_t(M) * quads;
    const int64_t stride = int64_t(gridDim.x) * kReduceThreads;
    for (int64_t i = int64_t(blockIdx.x) * kReduceThreads + threadIdx.x; i < total; i += stride) {
        const int64_t row = i / quads;
        const int col = int(i - row * quads) * 4;
        const int valid = N - col;
        const float* w = ws + row * ldw + col;
        float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int z = 0; z < splits; ++z) {
            const float4 v = load_row4<true>(w + z * slab, 0, valid);
            s.x += v.x;
            s.y += v.y;
            s.z += v.z;
            s.w += v.w;
        }
        mmk::store4<kAlignedC>(C + row * ldc + col, valid, s);
    }
}

mm_status launch_reduce(const float* ws, int64_t ldw, int64_t slab, int splits, const GemmArgs& g,
                        cudaStream_t stream) {
    int sms = 0;
    const mm_status st = mmk::sm_count(&sms);
    if (st != MM_OK) return st;
    const int64_t total = int64_t(g.M) * ((int64_t(g.N) - 1) / 4 + 1);
    const int64_t want = (total - 1) / kReduceThreads + 1;
    const unsigned blocks = unsigned(want < int64_t(sms) * 8 ? want : int64_t(sms) * 8);
    const bool aligned = (reinterpret_cast<uintptr_t>(g.C) & 15u) == 0 && g.ldc % 4 == 0;
    if (aligned)
        splitk_reduce_kernel<true><<<blocks, kReduceThreads, 0, stream>>>(ws, ldw, slab, splits, g.M, g.N, g.C, g.ldc);
    else
        splitk_reduce_kernel<false><<<blocks, kReduceThreads, 0, stream>>>(ws, ldw, slab, splits, g.M, g.N, g.C, g.ldc);
    return mm_check_launch("splitk reduce");
}

}  // namespace

namespace splitk {

int choose_splits(int64_t tiles, int K, int sms, int blocks_per_sm, int waves, int min_slice_k, int max_splits) {
    // Integer division rounds down: a split that would spill into an extra, mostly empty wave is not taken
    // (2048^2 in 128x256 tiles is 128 tiles on 132 SMs: splitting in 2 would make 2 waves of one).
    int64_t s = (int64_t(sms) * blocks_per_sm * waves) / tiles;
    const int64_t by_k = K / min_slice_k;
    if (s > by_k) s = by_k;
    if (s > max_splits) s = max_splits;
    return s < 2 ? 1 : int(s);
}

mm_status run(int cfg, int splits, const GemmArgs& g, cudaStream_t stream) {
    const int bk = pipelined::config_info(cfg).bk;
    const int k_tiles = (g.K - 1) / bk + 1;
    if (splits > k_tiles) splits = k_tiles;
    if (splits < 1) splits = 1;
    // Even slices of whole K tiles; recount so that no slice is empty.
    const int per_split = (k_tiles - 1) / splits + 1;
    splits = (k_tiles - 1) / per_split + 1;
    if (splits == 1) return pipelined::launch_config(cfg, g, 1, k_tiles, g.C, g.ldc, 0, stream);

    const int64_t ldw = (int64_t(g.N) + 3) / 4 * 4;
    const int64_t slab = int64_t(g.M) * ldw;
    DeviceBuffer ws(stream, DeviceBuffer::Pool::kWorkspace);  // freed after the reduction, on every exit path
    mm_status st = ws.allocate(size_t(splits) * size_t(slab) * sizeof(float), "the split-K workspace");
    if (st == MM_OK) st = pipelined::launch_config(cfg, g, splits, per_split, ws.data(), ldw, slab, stream);
    if (st == MM_OK) st = launch_reduce(ws.data(), ldw, slab, splits, g, stream);
    return st;
}

}  // namespace splitk

// Registry entry point: 64x64 tiles, split count from the same rule as `best`; shapes whose tiles already
// fill the GPU (or with short K) run unsplit.
mm_status launch_splitk(const GemmArgs& g, cudaStream_t stream) {
    const int cfg = pipelined::kCfg64x64;
    int sms = 0;
    const mm_status st = mmk::sm_count(&sms);
    if (st != MM_OK) return st;
    const pipelined::ConfigInfo& ci = pipelined::config_info(cfg);
    const int64_t tiles = int64_t(mmk::tiles_of(g.M, ci.bm)) * mmk::tiles_of(g.N, ci.bn);
    const int splits = splitk::choose_splits(tiles, g.K, sms, ci.blocks_per_sm, best_table::kSplitWaves,
                                             best_table::kSplitMinSliceK, best_table::kSplitMaxSplits);
    return splitk::run(cfg, splits, g, stream);
}
