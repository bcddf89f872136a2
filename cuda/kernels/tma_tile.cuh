// The device side of the bulk-copy (TMA) kernels, tma.cu and streamk.cu: tile configurations, the
// shared-memory ring on mbarriers, the per-tile transposition of A and the warp-tiled k loop. tma.cu's
// header comment explains the technique and the model; this file only holds the code both kernels run.
#pragma once

#include <cuda.h>

#include <atomic>

#include "bulk_copy.cuh"
#include "device_props.cuh"
#include "pipelined.cuh"
#include "tma.cuh"
#include "warp_tile.cuh"

namespace tmak {

constexpr unsigned kGroupM = 8;  // tile rows per rasterization band, as in pipelined

template <int BM_, int BN_, int BK_, int WN_, int FN_, int STAGES_, int MIN_BLOCKS_, int CHUNK_K_,
          mmk::FmaOrder ORDER_, bool STAGED_STORE_ = false>
struct Cfg {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_, kMinBlocks = MIN_BLOCKS_;
    // The tile's epilogue: each thread's float4 stores straight to C, or (kStagedStore) through the ring, so
    // that no accumulator has to sit in a register quad (TileLoop::store says why that matters).
    static constexpr bool kStagedStore = STAGED_STORE_;
    static constexpr int kStagedStride = BN + 4;  // floats per row of the staged tile
    // The k loop runs BK / CHUNK_K trips of a CHUNK_K-step unrolled body (CHUNK_K = BK: one straight body).
    static constexpr int kChunkK = CHUNK_K_, kChunks = BK / CHUNK_K_;
    static constexpr int WM = 64, FM = 2, LM = 8, LN = 4, WN = WN_, FN = FN_;  // warp tile 64 x WN
    using Warp = mmk::WarpTile<FM, FN, LM, LN, ORDER_>;
    static constexpr int kWarpsM = BM / WM, kWarpsN = BN / WN;
    static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
    static constexpr int kRowBytes = BK * 4;              // one A row in the ring (= the swizzle span)
    static constexpr int kSwizzleMask = kRowBytes / 16 - 1;
    static constexpr int SA = BM + 4;                     // at_s row stride in floats
    static constexpr int kABytes = BM * BK * 4, kBBytes = BK * BN * 4, kStageBytes = kABytes + kBBytes;
    static constexpr int kATFloats = BK * SA;
    static constexpr int kSmemBytes = STAGES * kStageBytes + 2 * kATFloats * 4 + STAGES * 8 + 1024;
    // Transposition: (BM/4) x (BK/4) blocks of 4 rows x 4 k, kBlocksPerThread per thread.
    static constexpr int kBlocks = (BM / 4) * (BK / 4);
    static constexpr int kBlocksPerThread = kBlocks / kThreads;

    static constexpr bool valid() {
        return Warp::kWM == WM && Warp::kWN == WN && BM % WM == 0 && BN % WN == 0 && kThreads <= 1024 &&
               (kRowBytes == 64 || kRowBytes == 128) &&  // the swizzles the A map uses
               BK % 16 == 0 && kBlocks % kThreads == 0 && kBlocksPerThread >= 1 && BK % kChunkK == 0 &&
               kChunkK % 2 == 0 && kChunkK >= 2 &&  // register double-buffering alternates buffers across k
               BM <= 256 && BN <= 256 && BK <= 256 &&  // bulk-copy box limits
               kABytes % 1024 == 0 && kBBytes % 1024 == 0 &&  // every stage keeps the swizzle's 1 KB alignment
               (!kStagedStore || BM * kStagedStride * 4 <= STAGES * kStageBytes);  // the staged tile fits the ring
    }
};

// FMA order (warp_tile.cuh), by H200 measurements of both orders: serpentine made tma 128x256 3% faster at
// 4096^3 and 4.5% at 8192^3 (ncu at 4096^3: dispatch stalls 0.18 -> 0.14, fixed-latency waits 0.08 -> 0.04
// per instruction) and tma 128x64 2-4% faster at 1024^3-4096^3; it made tma 128x128 1.5-2% slower at
// 2048^3-4096^3 (and streamk 128x128 3% slower at 1536^3 and 3072^3, where best uses it), so that one keeps rows.
// streamk's 128x256 configurations run this one.
using Cfg128x256 = Cfg<128, 256, 32, 64, 4, 3, 1, 32, mmk::FmaOrder::kSerpentine>;
using Cfg128x128 = Cfg<128, 128, 16, 64, 4, 4, 2, 16, mmk::FmaOrder::kRows>;
// Two 16-k chunks: at 1024^2 this config runs one block (4 warps, one per scheduler) per SM, where nothing
// hides instruction-cache misses; the 32-k body (32 KB of code) ran at 23.5 TFLOPS, the 16-k one at 35.8.
using Cfg128x64 = Cfg<128, 64, 32, 32, 2, 3, 2, 16, mmk::FmaOrder::kSerpentine>;
// tma's two 128x256x32 configurations stage their tile through shared memory (TileLoop::staged_store), which
// let nvcc allocate a better k loop. The orders were picked by a register-bank model over 96 orders of the
// 16-k body and 62 of the 32-k body (built and scored from the SASS), then measured on the H200
// (docs/results/k-loop-experiments-3.txt, one call, 6 rounds, paired with cuBLAS): the 32-k body in 2x4
// blocks ran 51.3 TFLOPS at 4096^3 and 52.9 at 8192^3 against 51.0 and 52.5 for the serpentine with direct
// stores; the 16-k body in rows ran 49.7 at 2048^3 against 49.1 for the earlier 16-k configuration (pair
// serpentine, direct stores). On a slower H200 (another call) the 16-k body ran 51.0 at 4096^3 and the 32-k
// body 49.8 (why that machine runs the 68 KB 32-k body slower was not measured).
using Cfg128x256Staged = Cfg<128, 256, 32, 64, 4, 3, 1, 32, mmk::FmaOrder::kBlocks2x4, true>;
using Cfg128x256k16 = Cfg<128, 256, 32, 64, 4, 3, 1, 16, mmk::FmaOrder::kRows, true>;

// Block b of the transposition covers rows 4q..4q+3 and 16-byte chunk c (k = 4c..4c+3) of the A tile.
// The 8 threads of a quarter warp take c's low two bits from b%4 and q's parity from (b/4)%2, so their
// 8 reads hit 8 different swizzled chunks (no bank conflicts on the ring side).
template <class C>
__device__ __forceinline__ void transpose_block_coords(int b, int& q, int& c) {
    const int u = b % 8, hi = b / 8;
    constexpr int kChunkHighs = C::BK / 16;  // chunks = 4 * kChunkHighs
    c = (u & 3) + 4 * (hi % kChunkHighs);
    q = 2 * (hi / kChunkHighs) + ((u >> 2) & 1);
}

// One block's shared memory (ring, transposed A, barriers) and its threads' places in the block tile.
// A block may run several products through it one after another (a streamk block computes pieces of two
// or more tiles): the ring and its mbarrier phases simply continue, counted by loaded_.
template <class C>
class TileLoop {
  public:
    using Warp = typename C::Warp;
    using Acc = float[Warp::kTM][Warp::kTN];

    // Carves the dynamic shared memory and initialises the barriers; every thread of the block must call it.
    __device__ __forceinline__ TileLoop(uint8_t* smem_raw, const CUtensorMap* a_map, const CUtensorMap* b_map)
        : a_map_(a_map), b_map_(b_map), tid_(threadIdx.x) {
        // The swizzled A boxes need 1 KB alignment; round up by pointer arithmetic so accesses stay LDS/STS.
        uint8_t* const smem = smem_raw + ((1024 - (mmk::smem_addr(smem_raw) & 1023)) & 1023);
        a_ring_ = smem;                                    // [STAGES][BM][BK], swizzled
        b_ring_ = smem + C::STAGES * C::kABytes;           // [STAGES][BK][BN]
        at_s_ = reinterpret_cast<float*>(smem + C::STAGES * C::kStageBytes);  // [2][BK][SA]
        full_ = reinterpret_cast<uint64_t*>(at_s_ + 2 * C::kATFloats);       // [STAGES]
        if (tid_ == 0) {
            mmk::prefetch_tensor_map(a_map);
            mmk::prefetch_tensor_map(b_map);
            for (int s = 0; s < C::STAGES; ++s) mmk::mbarrier_init(mmk::smem_addr(&full_[s]), 1);
            mmk::mbarrier_init_fence();
        }
        __syncthreads();
    }

    // acc = the product of the block tile at (m0, n0) over K tiles [kt_begin, kt_end) (kt_end > kt_begin).
    // Ends with a block barrier, after which the ring and at_s are free for the next call.
    __device__ __forceinline__ void accumulate(int m0, int n0, int kt_begin, int kt_end, Acc& acc) {
        const int count = kt_end - kt_begin, first = loaded_;
        loaded_ += count;
        // Tile j of this call (K tile kt_begin + j) occupies ring slot (first + j) % STAGES, whose barrier
        // completes for the ((first + j) / STAGES)-th time.
        auto full_bar = [&](int j) { return mmk::smem_addr(&full_[(first + j) % C::STAGES]); };
        auto parity = [&](int j) { return uint32_t((first + j) / C::STAGES) & 1; };
        auto issue = [&](int j) {  // thread 0 only
            const int s = (first + j) % C::STAGES, kt = kt_begin + j;
            mmk::mbarrier_arrive_expect_tx(full_bar(j), C::kStageBytes);
            mmk::bulk_tensor_load_2d(mmk::smem_addr(a_ring_ + s * C::kABytes), a_map_, full_bar(j), kt * C::BK, m0);
            mmk::bulk_tensor_load_2d(mmk::smem_addr(b_ring_ + s * C::kBBytes), b_map_, full_bar(j), n0, kt * C::BK);
        };
        if (tid_ == 0) {
            if (first > 0) mmk::fence_proxy_async_shared();  // the previous call's reads of the ring
            for (int j = 0; j < C::STAGES && j < count; ++j) issue(j);
        }

        // ---- transposition of A: ring (row-major, swizzled) -> at_s (K-major) ----
        float4 in_transit[C::kBlocksPerThread][4];  // [block][row]: 4 k each
        auto transpose_load = [&](int j) {
            const uint8_t* const src = a_ring_ + ((first + j) % C::STAGES) * C::kABytes;
#pragma unroll
            for (int p = 0; p < C::kBlocksPerThread; ++p) {
                int q, ch;
                transpose_block_coords<C>(tid_ + p * C::kThreads, q, ch);
#pragma unroll
                for (int r = 0; r < 4; ++r) {
                    const int row = 4 * q + r;
                    const int swizzled = ch ^ (((row * C::kRowBytes) >> 7) & C::kSwizzleMask);
                    in_transit[p][r] = *reinterpret_cast<const float4*>(src + row * C::kRowBytes + 16 * swizzled);
                }
            }
        };
        auto transpose_store = [&](int buffer) {
            float* const dst = at_s_ + buffer * C::kATFloats;
#pragma unroll
            for (int p = 0; p < C::kBlocksPerThread; ++p) {
                int q, ch;
                transpose_block_coords<C>(tid_ + p * C::kThreads, q, ch);
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    *reinterpret_cast<float4*>(dst + (4 * ch + j) * C::SA + 4 * q) =
                        make_float4(mmk::f4_get(in_transit[p][0], j), mmk::f4_get(in_transit[p][1], j),
                                    mmk::f4_get(in_transit[p][2], j), mmk::f4_get(in_transit[p][3], j));
            }
        };
        mmk::mbarrier_wait(full_bar(0), parity(0));
        transpose_load(0);
        transpose_store(0);
        __syncthreads();

        const int lane = tid_ % 32, warp = tid_ / 32;
        const int wm = warp / C::kWarpsN, wn = warp % C::kWarpsN;
        row0_ = wm * C::WM + 4 * Warp::lane_m(lane);  // also store's: set before any store
        col0_ = wn * C::WN + 4 * Warp::lane_n(lane);

#pragma unroll
        for (int i = 0; i < Warp::kTM; ++i)
#pragma unroll
            for (int j = 0; j < Warp::kTN; ++j) acc[i][j] = 0.f;

        for (int j = 0; j < count; ++j) {
            const bool has_next = j + 1 < count;
            if (has_next) {  // tile j+1 was issued STAGES-1 iterations ago
                mmk::mbarrier_wait(full_bar(j + 1), parity(j + 1));
                transpose_load(j + 1);
            }
            const float* const a_k = at_s_ + (j & 1) * C::kATFloats + row0_;
            const float* const b_k =
                reinterpret_cast<const float*>(b_ring_ + ((first + j) % C::STAGES) * C::kBBytes) + col0_;
            float4 fa[2][C::FM], fb[2][C::FN];  // [register buffer][fragment]
            Warp::load(fa[0], fb[0], a_k, b_k);
#pragma unroll 1
            for (int chunk = 0; chunk < C::kChunks; ++chunk) {
                if (C::kChunks > 1 && chunk == C::kChunks / 2 && has_next) transpose_store((j + 1) & 1);
                const float* const a_c = a_k + chunk * C::kChunkK * C::SA;
                const float* const b_c = b_k + chunk * C::kChunkK * C::BN;
                // k offset of the next chunk's first row; the last chunk reloads row 0 (harmless, discarded).
                const int next = chunk + 1 < C::kChunks ? C::kChunkK : -chunk * C::kChunkK;
                mmk::static_for<0, C::kChunkK>([&](auto k_const) {
                    constexpr int k = decltype(k_const)::value;
                    constexpr int nb = (k + 1) & 1;  // fragment buffer of step k+1
                    if constexpr (k + 1 < C::kChunkK)
                        Warp::load(fa[nb], fb[nb], a_c + (k + 1) * C::SA, b_c + (k + 1) * C::BN);
                    else if constexpr (C::kChunks > 1)
                        Warp::load(fa[nb], fb[nb], a_c + next * C::SA, b_c + next * C::BN);
                    if constexpr (C::kChunks == 1 && k == C::BK / 2) {  // transpose_load's loads have long landed
                        if (has_next) transpose_store((j + 1) & 1);
                    }
                    Warp::fma(acc, fa[k & 1], fb[k & 1]);
                });
            }
            // Publishes at_s[(j+1)&1]; every thread is done with at_s[j&1] and with ring slot (first+j)%STAGES
            // (its A part was transposed last iteration, its B part read just now), so it can be refilled.
            __syncthreads();
            if (tid_ == 0 && j + C::STAGES < count) {
                mmk::fence_proxy_async_shared();
                issue(j + C::STAGES);
            }
        }
    }

    // Writes acc as the block tile at (m0, n0) of the M x N matrix c; every element is bounds-checked.
    // A staged store overwrites the ring, so it must be the block's last use of this TileLoop.
    __device__ __forceinline__ void store(const Acc& acc, float* c, int64_t ldc, int m0, int n0, int M, int N) const {
        if constexpr (C::kStagedStore)
            staged_store(acc, c + int64_t(m0) * ldc + n0, ldc, M - m0, N - n0);
        else
            Warp::template store<true>(acc, c + int64_t(m0) * ldc + n0, ldc, row0_, col0_, M - m0, N - n0);
    }

  private:
    // Direct float4 stores need each row's 4 accumulators in 4 consecutive registers, which fixes every
    // accumulator's register-bank parity to that of the B operand it is multiplied with (B arrives by
    // LDS.128 too); in a short k loop nvcc then reads both from one bank. Writing the accumulators to shared
    // memory one by one leaves nvcc free to place them: the tile is staged in the ring (free once
    // accumulate() has returned) and copied out as float4 rows. m_rem/n_rem: rows/columns of C left.
    __device__ __forceinline__ void staged_store(const Acc& acc, float* c_tile, int64_t ldc, int m_rem, int n_rem) const {
        float* const staged = reinterpret_cast<float*>(a_ring_);
        Warp::stage(acc, staged, C::kStagedStride, row0_, col0_);
        __syncthreads();
        constexpr int kQuadsPerRow = C::BN / 4;
#pragma unroll 4
        for (int q = tid_; q < C::BM * kQuadsPerRow; q += C::kThreads) {
            const int row = q / kQuadsPerRow, col = 4 * (q % kQuadsPerRow);
            if (row < m_rem)
                mmk::store4<true>(c_tile + int64_t(row) * ldc + col, n_rem - col,
                                  *reinterpret_cast<const float4*>(staged + row * C::kStagedStride + col));
        }
    }

    const CUtensorMap* a_map_;
    const CUtensorMap* b_map_;
    uint8_t* a_ring_;
    uint8_t* b_ring_;
    float* at_s_;
    uint64_t* full_;
    int tid_, row0_, col0_;
    int loaded_ = 0;  // K tiles this block has loaded through the ring so far
};

// ---- host side ----------------------------------------------------------------------------------------

// Before launching `kernel` (an instantiation for config C): lets it use C's shared memory on this device
// (once per device, recorded in configured_devices) and encodes g's tensor maps. The maps describe this
// call's matrices, so they are encoded per launch: host work only (no GPU call), enqueued ahead of the GPU
// in back-to-back launches. Its cost inside the timings was not measured.
template <class C>
mm_status prepare_launch(const void* kernel, std::atomic<uint64_t>& configured_devices, const char* what,
                         const GemmArgs& g, CUtensorMap* a_map, CUtensorMap* b_map) {
    static_assert(C::valid(), "tile configuration violates the warp-tile / bulk-copy / transposition constraints");
    static_assert(C::kSmemBytes <= 227 * 1024, "dynamic shared memory above the sm_90 per-block limit");
    static_assert(C::kMinBlocks * (C::kSmemBytes + 1024) <= 228 * 1024, "kMinBlocks blocks must fit in shared memory");
    const mm_status st = mmk::raise_shared_memory_limit(kernel, C::kSmemBytes, configured_devices, what);
    if (st != MM_OK) return st;
    return tma::encode_maps(g, C::BM, C::BN, C::BK, a_map, b_map);
}

template <class C>
constexpr pipelined::ConfigInfo config_info(const char* name) {
    return {name, C::BM, C::BN, C::BK, C::kThreads, C::STAGES, C::kMinBlocks};
}

}  // namespace tmak
