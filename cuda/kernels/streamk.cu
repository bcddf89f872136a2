// streamk: tma's mainloop, with the tiles of the ragged last wave shared out by K iterations (stream-K), the
// rung above tma.
//
// Technique: a GEMM of T output tiles on P resident blocks runs ceil(T / P) waves, and the last one is T mod P
// tiles wide: 3072^2 in 128x128 tiles is 576 tiles on 264 block slots, 2.18 waves in 3, so a third of the GPU
// idles through the last one. Stream-K shares that tail out by K iterations over extra blocks, whose partial
// tiles the finishing block of each tile adds up (core/schedule/stream_k.h has the schedule, its ordering and
// why it cannot deadlock). The tail-pieces schedule (tail3: 3 pieces per tail tile, one block each, handed out
// by the hardware as SMs free up) is the same kernel; with one piece per block its body runs once, so the ring
// starts at slot 0 at compile time and nvcc compiles the k loop as in tma.
//
// Composition: mainloop core/mainloop/ffma_bulk_tensor.cuh (a block that computes two pieces carries its ring's
// phases from one to the next); schedule: stream-K or tail pieces (schedule/stream_k.h, stream_k.cuh);
// epilogue: the stream-K fixup (epilogue/stream_k_fixup.cuh), then direct.
//
// Changes vs tma: the grid (whole tiles, then the stream-K blocks), the range walk, the workspace and the fixup.
// Like tma, every configuration is instantiated per op combination (the mainloop's operand layouts).
// The walk's state lives in shared memory and is re-read after the k loop: held in registers through it, it leaves
// nvcc a k loop with more register-bank conflicts than tma's.
//
// Model: at 3072^3 in 128x128 tiles the last 48 tiles join one whole wave: 312 tiles x 192 iterations over 264
// blocks, 227 iterations each in place of 2 x 192: the product takes 2.18 tile times instead of 3. Each split
// tile costs one extra partial write and read of BM x BN x 4 bytes (in L2) and one pipeline fill per piece.
// Workspace: one BM x BN slot of floats and one flag per stream-K block, only when a tile is split, from the
// library's workspace pool.
#include "kernels/streamk.h"

#include "core/configs/bulk_tensor_tiles.h"
#include "core/configs/pipelined.h"
#include "core/copy/tensor_map.h"
#include "core/device.h"
#include "core/device_buffer.h"
#include "core/epilogue/direct_store.cuh"
#include "core/epilogue/stream_k_fixup.cuh"
#include "core/launch.h"
#include "core/mainloop/ffma_bulk_tensor.cuh"
#include "core/schedule/stream_k.cuh"
#include "core/schedule/stream_k.h"

using gemm::FfmaTile;

namespace {

// tma's 128x256x32 tile with the serpentine order and direct stores: a stream-K block accumulates again after
// a store, and a staged store would overwrite the ring.
constexpr FfmaTile kTile128x256x32{.block = {128, 256, 32}, .warp = {64, 64}, .stages = 3, .k_unroll = 32,
                                   .fma_order = gemm::FmaOrder::kSerpentine, .min_blocks_per_sm = 1};

template <FfmaTile kTile, class OpA, class OpB>
struct StreamKKernel {
    using Mainloop = gemm::FfmaBulkTensorMainloop<kTile, OpA, OpB>;
    using Warp = typename Mainloop::Warp;
    using Partial = gemm::PartialTile<Warp, kTile.threads()>;
};

// kOnePiece: the tail-pieces schedule, where plan_stream_k makes every block's range one piece of one tile.
template <class Tile, bool kOnePiece, class OpA, class OpB>
__global__ void __launch_bounds__(Tile::value.threads(), Tile::value.min_blocks_per_sm)
    streamk_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* const c,
                   const int64_t ldc, const int M, const int N, const gemm::StreamKSchedule s, float4* const partials,
                   int* const flags) {
    constexpr FfmaTile kTile = Tile::value;
    using Kernel = StreamKKernel<kTile, OpA, OpB>;
    using Partial = typename Kernel::Partial;
    extern __shared__ __align__(16) uint8_t smem_raw[];
    __shared__ gemm::Piece piece;  // the walk's state, re-read after the k loop (see the header)
    typename Kernel::Mainloop loop(smem_raw, &a_map, &b_map, threadIdx.x);
    typename Kernel::Mainloop::Acc acc;

    const bool whole = blockIdx.x < s.dp_tiles;
    // This block's stream-K index, recomputed where needed rather than held through the k loop.
    auto sk_block = [&] { return whole ? 0 : int(blockIdx.x - s.dp_tiles); };
    if (threadIdx.x == 0) {  // the walk's start: nothing computed, the whole tile pending or the range's end
        gemm::Piece start{};
        start.whole_pending = whole;
        start.sk_end = whole ? 0 : gemm::sk_begin(s, sk_block() + 1);
        piece = start;
    }
    do {
        __syncthreads();  // every thread has read the previous piece
        if (threadIdx.x == 0) piece = gemm::next_piece<kTile.block.m, kTile.block.n>(s, M, N, sk_block(), piece);
        __syncthreads();
        if (piece.done) break;
        loop.accumulate(piece.m0, piece.n0, piece.kt_begin, piece.kt_end, acc);
        const int block = sk_block();
        if (piece.kt_end < s.k_tiles) {  // a later block finishes this tile
            Partial::publish(acc, partials + block * Partial::kSlotFloat4s, flags + block);
            continue;
        }
        if (piece.kt_begin > 0)  // earlier blocks computed the head: every block whose range reaches into it
            for (int j = block - 1;; --j) {
                if (gemm::sk_begin(s, j) < gemm::sk_begin(s, j + 1))
                    Partial::add(acc, partials + j * Partial::kSlotFloat4s, flags + j);
                if (gemm::sk_begin(s, j) <= piece.tile_start) break;
            }
        gemm::store_direct<typename Kernel::Warp, true>(acc, c + int64_t(piece.m0) * ldc + piece.n0, ldc, loop.row0(),
                                                        loop.col0(), M - piece.m0, N - piece.n0);
    } while (!kOnePiece);
}

// kTailPieces: 0 for stream-K's equal shares, p > 0 for p pieces per tail tile. Runs the instantiation of g's op
// combination.
template <FfmaTile kTile, int kTailPieces>
mm_status launch(const GemmArgs& g, int, cudaStream_t stream) {
    static_assert(kTailPieces >= 0, "kTailPieces: 0 (stream-K shares) or the pieces per tail tile");
    return with_ops(g, [&](auto op_a, auto op_b) {
        using Kernel = StreamKKernel<kTile, decltype(op_a), decltype(op_b)>;
        constexpr auto kernel =
            &streamk_kernel<gemm::FfmaTileType<kTile>, (kTailPieces > 0), decltype(op_a), decltype(op_b)>;
        CUtensorMap a_map, b_map;
        MM_TRY(gemm::prepare_bulk_copy_launch<kernel>(Kernel::Mainloop::kSmemBytes, g, kTile.block, &a_map, &b_map));
        int sms = 0;
        MM_TRY(gemm::sm_count(&sms));
        int grid = 0;
        const gemm::StreamKSchedule s = gemm::plan_stream_k(gemm::output_tiles(g, kTile.block),
                                                            int(tiles_of(g.K, kTile.block.k)),
                                                            sms * kTile.min_blocks_per_sm, kTailPieces, &grid);

        // A workspace only when some tile is split: one slot of partial sums per stream-K block, then their flags
        // (zeroed per launch). DeviceBuffer frees it stream-ordered after the kernel, on every exit path.
        const bool split = s.sk_iters > 0 && s.k_tiles > 1;
        const size_t slot_floats = split ? size_t(s.sk_blocks) * Kernel::Partial::kSlotFloat4s * 4 : 0;
        DeviceBuffer ws(stream, DeviceBuffer::Pool::kWorkspace);
        float4* partials = nullptr;
        int* flags = nullptr;
        if (split) {
            MM_TRY(ws.allocate((slot_floats + size_t(s.sk_blocks)) * sizeof(float), "the stream-K workspace"));
            partials = reinterpret_cast<float4*>(ws.data());
            flags = reinterpret_cast<int*>(ws.data() + slot_floats);
            MM_TRY(mm_check_cuda(cudaMemsetAsync(flags, 0, size_t(s.sk_blocks) * sizeof(int), stream),
                                 "cudaMemsetAsync(stream-K flags)"));
        }
        return gemm::launch(kernel, grid, kTile.threads(), Kernel::Mainloop::kSmemBytes, stream, "streamk", a_map,
                            b_map, g.C, g.ldc, g.M, g.N, s, partials, flags);
    });
}

// The configuration's kernel for row-major operands answers can_run's machine-code question for every op
// combination's instantiation (all have machine code for the same architectures).
template <FfmaTile kTile, int kTailPieces>
constexpr gemm::ConfigDesc describe(const char* name, const gemm::ConfigDesc& fallback) {
    constexpr auto kRowMajorKernel = &streamk_kernel<gemm::FfmaTileType<kTile>, (kTailPieces > 0), OpN, OpN>;
    gemm::ConfigDesc config = gemm::describe<kTile>(name, false, &gemm::bulk_copy_can_run<kRowMajorKernel>,
                                                    &launch<kTile, kTailPieces>, &fallback);
    config.shares_last_wave = true;
    return config;
}

}  // namespace

namespace streamk {

constinit const gemm::ConfigDesc k128x256x32 =
    describe<kTile128x256x32, 0>("streamk 128x256x32", pipelined::k128x256x16);
constinit const gemm::ConfigDesc k128x128x16 =
    describe<gemm::kBulkTensorTile128x128x16, 0>("streamk 128x128x16", pipelined::k128x128x16);
constinit const gemm::ConfigDesc k128x256x32Tail3 =
    describe<kTile128x256x32, 3>("streamk 128x256x32 tail3", pipelined::k128x256x16);

}  // namespace streamk

// Registry entry point: the 128x256 configuration (its fallback where the copy engine cannot run).
mm_status launch_streamk(const GemmArgs& g, cudaStream_t stream) {
    return gemm::launch_config(streamk::k128x256x32, g, 1, stream);
}
