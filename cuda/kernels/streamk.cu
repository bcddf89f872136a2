// streamk: tma's tiles, with the tiles of the ragged last wave shared out by K iterations (stream-K), the
// rung above tma.
//
// Technique: a GEMM of T output tiles on P resident blocks runs ceil(T / P) waves, and the last one is
// T mod P tiles wide: 3072^2 in 128x128 tiles is 576 tiles on 264 block slots, 2.18 waves in 3, so a
// third of the GPU idles through the last one. Stream-K counts that tail's work in K iterations (one
// BK-deep step of one tile) instead of tiles. The whole waves stay whole tiles, one block each, exactly as
// in tma; the remaining tiles' iterations, laid out tile after tile, are cut into P equal contiguous
// ranges, one per extra block. A range usually ends inside a tile: the block that holds a tile's last
// iterations (the "finisher") adds the partial sums of the blocks that hold its earlier ones, read from a
// workspace, and stores the tile. When the remainder is under half a wave, one whole wave joins it, so
// that every range is at least one tile deep.
//
// Second schedule, tail3 (streamk.cuh's kCfg128x256Tail3): the same kernel with every tile of the ragged
// last wave cut into 3 equal K pieces, one block each, and no whole wave joining them. Stream-K's equal
// shares assume that every SM runs at one speed; they do not (below), and its slowest SMs then end the
// kernel. Pieces a third of a tile long are handed out by the hardware as SMs free up, so a slow SM
// takes fewer of them; what is left is their granularity (traced at 4096^3 on the H200, the SMs' last
// pieces end 2455-2696 us, about one piece apart). Measured there: 48.4-49.0 TFLOPS at 3072^3 (288 tiles,
// 2.18 waves) against 46.7-47.3 for the stream-K 128x128 configuration, 49.0 with the one-piece kernel
// (below); at 4096^3 it ties tma (docs/results/streamk-tail3-experiments.txt).
//
// Ordering, and why it cannot deadlock: the stream-K blocks come last in the grid and walk their ranges
// back to front, so each first computes and publishes (global stores, fence, release flag) the head of
// the tile its range ends in, and only then the tail it finishes, where it waits (acquire) for the flags
// of the lower-numbered blocks holding that tile's head. Waits only go to lower block numbers, which were
// dispatched earlier (blocks are dispatched in order) and publish before they ever wait. The partials are
// added in a fixed order, so results are reproducible run to run.
//
// Changes vs tma: the grid (whole tiles, then the stream-K blocks), the range walk, the workspace and the
// fixup; the ring, the transposition and the k loop are tma's, shared through tma_tile.cuh (a block that
// computes two pieces carries its mbarrier phases from one to the next). The walk's state lives in shared
// memory, not in registers, through the k loop: held in registers it left nvcc a k loop with more
// register-bank conflicts than tma's (SASS, the bank model of docs/results/fma-order-search.txt), and
// whole tiles ran slower than tma's. Tiles: tma's 128x256x32 (1 block/SM, P = 132 on an H200) and
// 128x128x16 (2 blocks/SM, P = 264).
//
// Model: at 3072^3 in 128x128 tiles the last 48 tiles join one whole wave: 312 tiles x 192 iterations over
// 264 blocks, 227 iterations each in place of 2 x 192: the product takes 2.18 tile times instead of 3
// (measured on the H200: 43.5 TFLOPS against tma's 35.8, not the 1.38x of this count). Each split
// tile costs one extra partial write and read of BM x BN x 4 bytes (64 or 128 KB, in L2) and one pipeline
// fill per piece. A range is kept at least kMinIterations deep and a tile in at most kMaxPiecesPerTile
// pieces, so a single long-K tile does not fold 263 partials serially. What the model leaves out: the SMs
// do not run at one speed (traced at 4096^3, tma's whole 128x256 tiles take up to 11% longer on some SMs
// than on most: docs/results/sm-speed-experiments.txt), and equal static shares make the slowest SM run a
// full one, while tma's last wave goes to whichever SMs free up first (hardware dispatch: in the trace the
// slowest SMs run one tile fewer); tail3 keeps that dispatch with finer pieces. `best` chooses per shape.
// Workspace: one BM x BN slot of floats and one flag per stream-K block (P blocks: 17 MB at both configs on
// 132 SMs; tail3: 3 per tail tile, up to 49 MB), only when a tile is split, from the library's workspace
// pool (device_buffer.h). Registers (make resources): 253 and 254 for the stream-K kernels, 255 for tail3's
// one-piece kernel; shared memory as tma.
#include <atomic>

#include "../device_buffer.h"
#include "device_props.cuh"
#include "splitk.cuh"
#include "streamk.cuh"
#include "tma_tile.cuh"

namespace {

constexpr int kMinIterations = 8;
constexpr int kMaxPiecesPerTile = 4;

// Who computes what: planned on the host (plan), read by every block.
struct Schedule {
    int64_t dp_tiles;  // tiles [0, dp_tiles) are computed whole, by blocks [0, dp_tiles)
    int64_t sk_iters;  // K iterations of tiles [dp_tiles, tiles), tile by tile, shared out by sk_blocks blocks
    int k_tiles;       // K iterations per tile
    int sk_blocks;     // stream-K block i (grid block dp_tiles + i) has iterations [sk_begin(i), sk_begin(i + 1))

    __device__ int64_t sk_begin(int block) const {
        return block >= sk_blocks ? sk_iters : sk_iters * block / sk_blocks;
    }
};

// tail_pieces = 0: stream-K, the tail's iterations in equal shares over at most one wave of blocks.
// tail_pieces = p > 0: the tail tiles alone (no whole wave joins them), each cut into p equal K pieces
// (fewer when K has fewer tiles), one block per piece; the equal division of sk_iters then falls exactly
// on those piece boundaries, since sk_iters * block / (tail tiles * p) = k_tiles * block / p.
Schedule plan(int64_t tiles, int k_tiles, int resident_blocks, int tail_pieces, int* grid) {
    int64_t sk_tiles = tiles % resident_blocks;
    if (tail_pieces == 0 && sk_tiles != 0 && tiles >= resident_blocks && 2 * sk_tiles < resident_blocks)
        sk_tiles += resident_blocks;
    Schedule s{tiles - sk_tiles, sk_tiles * k_tiles, k_tiles, 0};
    int64_t sk_blocks = sk_tiles * (tail_pieces < k_tiles ? tail_pieces : k_tiles);
    if (tail_pieces == 0) {
        sk_blocks = s.sk_iters / kMinIterations;
        if (sk_blocks > sk_tiles * kMaxPiecesPerTile) sk_blocks = sk_tiles * kMaxPiecesPerTile;
        if (sk_blocks > resident_blocks) sk_blocks = resident_blocks;
        if (sk_blocks < 1 && s.sk_iters > 0) sk_blocks = 1;
    }
    s.sk_blocks = int(sk_blocks);
    *grid = int(s.dp_tiles) + s.sk_blocks;
    return s;
}

__device__ __forceinline__ void release_flag(int* flag) {
    asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
}

__device__ __forceinline__ int acquire_flag(const int* flag) {
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
    return v;
}

// The accumulators of a whole block as one workspace slot, laid out [element][thread] so that every
// access is a coalesced float4 per thread.
template <class C>
struct Partial {
    using Warp = typename C::Warp;
    static constexpr int kFloat4s = Warp::kTM * Warp::kTN / 4;     // per thread
    static constexpr int64_t kSlotFloat4s = int64_t(kFloat4s) * C::kThreads;

    // Float4 v of a thread's accumulators is acc[i][j..j+3].
    __device__ static void position(int v, int& i, int& j) {
        i = v / (Warp::kTN / 4);
        j = 4 * (v % (Warp::kTN / 4));
    }

    __device__ static void publish(const float (&acc)[Warp::kTM][Warp::kTN], float4* slot, int* flag) {
#pragma unroll
        for (int v = 0; v < kFloat4s; ++v) {
            int i, j;
            position(v, i, j);
            __stcg(slot + v * C::kThreads + threadIdx.x,
                   make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]));
        }
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) release_flag(flag);
    }

    __device__ static void add(float (&acc)[Warp::kTM][Warp::kTN], const float4* slot, const int* flag) {
        if (threadIdx.x == 0)
            while (acquire_flag(flag) == 0) __nanosleep(64);
        __syncthreads();
#pragma unroll
        for (int v = 0; v < kFloat4s; ++v) {
            int i, j;
            position(v, i, j);
            const float4 p = __ldcg(slot + v * C::kThreads + threadIdx.x);
            acc[i][j] += p.x;
            acc[i][j + 1] += p.y;
            acc[i][j + 2] += p.z;
            acc[i][j + 3] += p.w;
        }
    }
};

// One piece of a block's work: K tiles [kt_begin, kt_end) of the tile at (m0, n0), tile_start being the
// tile's first iteration in the stream-K numbering. done: the block has no more.
struct Piece {
    int m0, n0, kt_begin, kt_end;
    int64_t tile_start;
    int64_t sk_end;  // the walk's position: the next piece ends here
    bool whole_pending, done;
};

// The piece after `prev` for stream-K block `block` (or the whole tile first, for blocks [0, dp_tiles)).
template <class C>
__device__ Piece next_piece(const Schedule& s, int M, int N, int block, Piece prev) {
    Piece p = prev;
    int64_t tile;
    p.kt_begin = 0;
    p.kt_end = s.k_tiles;
    p.tile_start = 0;
    if (prev.whole_pending) {
        tile = blockIdx.x;
        p.whole_pending = false;
    } else if (prev.sk_end > s.sk_begin(block)) {
        const int64_t sk_tile = (prev.sk_end - 1) / s.k_tiles;
        p.tile_start = sk_tile * s.k_tiles;
        const int64_t sk_begin = s.sk_begin(block);
        const int64_t unit_begin = sk_begin > p.tile_start ? sk_begin : p.tile_start;
        p.kt_begin = int(unit_begin - p.tile_start);
        p.kt_end = int(prev.sk_end - p.tile_start);
        tile = s.dp_tiles + sk_tile;
        p.sk_end = unit_begin;
    } else {
        p.done = true;
        return p;
    }
    int bm, bn;
    mmk::tile_coords(unsigned(tile), mmk::tiles_of(M, C::BM), mmk::tiles_of(N, C::BN), tmak::kGroupM, bm, bn);
    p.m0 = bm * C::BM;
    p.n0 = bn * C::BN;
    return p;
}

// kOnePiece (tail3's schedule, where plan() makes every block's range one piece of one tile): the body
// runs once, so the ring starts at slot 0 at compile time and nvcc compiles the k loop as in tma (SASS: the
// same instruction mix but for one uniform move). In the walk, ring slots and phases count on from a
// run-time base: 13 more uniform-datapath instructions per K tile, and whole tiles traced 1.1% slower than
// tma's.
template <class C, bool kOnePiece>
__global__ void __launch_bounds__(C::kThreads, C::kMinBlocks)
    streamk_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* const c,
                   const int64_t ldc, const int M, const int N, const Schedule s, float4* const partials,
                   int* const flags) {
    extern __shared__ __align__(16) uint8_t smem_raw[];
    // The current piece lives in shared memory and is re-read after the k loop: kept in registers through
    // it, the walk's state pushed the kernels to 254-255 registers and nvcc's k loop to more register-bank
    // conflicts than tma's (the same loop ran 4% slower per tile on the H200).
    __shared__ Piece piece;
    tmak::TileLoop<C> loop(smem_raw, &a_map, &b_map);
    typename tmak::TileLoop<C>::Acc acc;

    // Blocks [0, dp_tiles) compute one whole tile each, as tma's do; the blocks after them (dispatched
    // last) each take one stream-K range, walked back to front. One accumulate call site.
    const bool whole = blockIdx.x < s.dp_tiles;
    // This block's stream-K index, recomputed where needed rather than held through the k loop.
    auto sk_block = [&] { return whole ? 0 : int(blockIdx.x - s.dp_tiles); };
    if (threadIdx.x == 0) {
        Piece start{};
        start.whole_pending = whole;
        start.sk_end = whole ? 0 : s.sk_begin(sk_block() + 1);
        piece = start;
    }
    do {
        __syncthreads();  // every thread has read the previous piece
        if (threadIdx.x == 0) piece = next_piece<C>(s, M, N, sk_block(), piece);
        __syncthreads();
        if (piece.done) break;
        loop.accumulate(piece.m0, piece.n0, piece.kt_begin, piece.kt_end, acc);
        const int block = sk_block();
        if (piece.kt_end < s.k_tiles) {  // a later block finishes this tile
            Partial<C>::publish(acc, partials + block * Partial<C>::kSlotFloat4s, flags + block);
            continue;
        }
        if (piece.kt_begin > 0)  // earlier blocks computed the head: every block whose range reaches into it
            for (int j = block - 1;; --j) {
                if (s.sk_begin(j) < s.sk_begin(j + 1))
                    Partial<C>::add(acc, partials + j * Partial<C>::kSlotFloat4s, flags + j);
                if (s.sk_begin(j) <= piece.tile_start) break;
            }
        loop.store(acc, c, ldc, piece.m0, piece.n0, M, N);
    } while (!kOnePiece);
}

template <class C, int kTailPieces>
mm_status launch_impl(const char* name, const GemmArgs& g, cudaStream_t stream) {
    static_assert(kTailPieces >= 0, "kTailPieces: 0 (stream-K shares) or the pieces per tail tile");
    static_assert(!C::kStagedStore || kTailPieces > 0,
                  "a stream-K block accumulates again after a store, and a staged store overwrites the ring");
    auto kernel = streamk_kernel<C, (kTailPieces > 0)>;
    static std::atomic<uint64_t> configured_devices{0};
    CUtensorMap a_map, b_map;
    mm_status st = tmak::prepare_launch<C>(reinterpret_cast<const void*>(kernel), configured_devices,
                                           "cudaFuncSetAttribute(streamk)", g, &a_map, &b_map);
    if (st != MM_OK) return st;
    int sms = 0;
    st = mmk::sm_count(&sms);
    if (st != MM_OK) return st;
    const int64_t tiles = int64_t(mmk::tiles_of(g.M, C::BM)) * mmk::tiles_of(g.N, C::BN);
    int grid = 0;
    const Schedule s = plan(tiles, (g.K - 1) / C::BK + 1, sms * C::kMinBlocks, kTailPieces, &grid);

    // A workspace only when some tile is split: P slots of partial sums, then P flags (zeroed per launch).
    // DeviceBuffer frees it stream-ordered after the kernel, on every exit path.
    const bool split = s.sk_iters > 0 && s.k_tiles > 1;
    const size_t slot_floats = split ? size_t(s.sk_blocks) * Partial<C>::kSlotFloat4s * 4 : 0;
    DeviceBuffer ws(stream, DeviceBuffer::Pool::kWorkspace);
    float4* partials = nullptr;
    int* flags = nullptr;
    if (split) {
        st = ws.allocate((slot_floats + size_t(s.sk_blocks)) * sizeof(float), "the stream-K workspace");
        if (st != MM_OK) return st;
        partials = reinterpret_cast<float4*>(ws.data());
        flags = reinterpret_cast<int*>(ws.data() + slot_floats);
        st = mm_check_cuda(cudaMemsetAsync(flags, 0, size_t(s.sk_blocks) * sizeof(int), stream),
                           "cudaMemsetAsync(stream-K flags)");
        if (st != MM_OK) return st;
    }
    kernel<<<grid, C::kThreads, C::kSmemBytes, stream>>>(a_map, b_map, g.C, g.ldc, g.M, g.N, s, partials, flags);
    return mm_check_launch(name);
}

constexpr pipelined::ConfigInfo kConfigs[streamk::kNumConfigs] = {
    tmak::config_info<tmak::Cfg128x256>("streamk 128x256x32"),
    tmak::config_info<tmak::Cfg128x128>("streamk 128x128x16"),
    tmak::config_info<tmak::Cfg128x256>("streamk 128x256x32 tail3"),
};

}  // namespace

namespace streamk {

const pipelined::ConfigInfo& config_info(int id) { return kConfigs[id]; }

mm_status launch_config(int id, const GemmArgs& g, cudaStream_t stream) {
    const char* name = kConfigs[id].name;
    switch (id) {
        case kCfg128x256:
            return launch_impl<tmak::Cfg128x256, 0>(name, g, stream);
        case kCfg128x128:
            return launch_impl<tmak::Cfg128x128, 0>(name, g, stream);
        case kCfg128x256Tail3:
            return launch_impl<tmak::Cfg128x256, 3>(name, g, stream);
        default:
            return mm_fail(MM_ERR_INVALID_ARGUMENT, "streamk: no tile configuration %d", id);
    }
}

}  // namespace streamk

// Registry entry point: the 128x256 configuration. Operands the copy engine cannot describe go to
// pipelined's 128x256, as in tma.
mm_status launch_streamk(const GemmArgs& g, cudaStream_t stream) {
    if (!tma::usable(g)) return splitk::run(pipelined::kCfg128x256, 1, g, stream);
    return streamk::launch_config(streamk::kCfg128x256, g, stream);
}
