// tma: Hopper bulk tensor copies (TMA) on an mbarrier ring, with A transposed in shared memory once per
// tile, feeding the warp-tiled micro-kernel: the rung above pipelined.
//
// Technique: one thread per block issues, per K tile, two bulk tensor copies (cp.async.bulk.tensor): an
// A box of BM x BK and a B box of BK x BN, described by CUtensorMaps built on the host. The copy engine
// computes every address, zero-fills whatever lies outside the matrices (ragged edges need no code) and
// signals a "full" mbarrier with the bytes it wrote; the block waits on that barrier's phase. No thread
// spends instructions or registers on address arithmetic, predicates or per-element copies.
//
// The copy engine cannot transpose 4-byte elements, so A lands row-major (a_s[m][k], rows of BK floats,
// with the copy engine's 64- or 128-byte swizzle: chunk c of row r is stored at chunk c ^ f(r)). Read
// straight from that layout, a thread's A operands at one k would all come from the same component of one
// float4 per row, i.e. the same register-bank position: the H200 measured 42 TFLOPS at 4096^3 with 0.69
// dispatch stalls per instruction (ncu; 0.18 with the transposition below). Instead every thread transposes one or two 4x4 blocks per tile (4 LDS.128 +
// 4 STS.128 each) into a K-major double buffer at_s[k][m], and the micro-kernel is warp_tile.cuh's,
// unchanged. The transposition of tile kt+1 overlaps the FMAs of tile kt; one barrier per tile publishes
// it and also frees the ring stage that thread 0 refills next.
//
// Changes vs pipelined: bulk tensor copies + mbarriers instead of per-thread cp.async + wait_group; BK 32
// (16 for the 2-block config) so the per-tile costs (transposition, barrier) are amortised over more FMAs;
// the k loop is unrolled by construction (mmk::static_for), since nvcc declined to unroll it here, either
// whole or in chunks of 16 k (kChunkK) where a long body stalls on instruction fetch.
// Tile configurations (kConfigs below): 128x256x32 (3 stages, 8 warps), 128x128x16 (4 stages, 4 warps,
// 2 blocks/SM) and 128x64x32 (3 stages, 4 warps of 8x8 per thread, 2 blocks/SM).
//
// Model: a K tile moves (BM + BN) * BK * 4 bytes for 2 * BM * BN * BK FLOP (128x256: 42.7 FLOP/B,
// 128x128: 32, 128x64: 21.3) with 2 copy instructions per block. Per k a thread issues FM + FN LDS.128 for
// 16 * FM * FN FFMA (8x16: 6 per 128), plus per tile 4 LDS.128 + 4 STS.128 per transposed block (one or
// two blocks per thread). Shared memory: STAGES * (BM + BN) * BK * 4 (ring) + 2 * BK * (BM + 4) * 4
// (transposed A) + barriers + 1 KB alignment: 178 KB, 82 KB and 106 KB. Registers (make resources): 225
// and 223 for 8x16 (128 accumulators, 2 x 24 fragment floats, 16 for the block in transit), 199 for 8x8.
#include <cuda.h>

#include <atomic>

#include "bulk_copy.cuh"
#include "device_props.cuh"
#include "splitk.cuh"
#include "tma.cuh"
#include "warp_tile.cuh"

namespace {

constexpr unsigned kGroupM = 8;  // tile rows per rasterization band, as in pipelined

template <int BM_, int BN_, int BK_, int WN_, int FN_, int STAGES_, int MIN_BLOCKS_, int CHUNK_K_>
struct Cfg {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_, kMinBlocks = MIN_BLOCKS_;
    // The k loop runs BK / CHUNK_K trips of a CHUNK_K-step unrolled body (CHUNK_K = BK: one straight body).
    static constexpr int kChunkK = CHUNK_K_, kChunks = BK / CHUNK_K_;
    static constexpr int WM = 64, FM = 2, LM = 8, LN = 4, WN = WN_, FN = FN_;  // warp tile 64 x WN
    using Warp = mmk::WarpTile<FM, FN, LM, LN>;
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
               kABytes % 1024 == 0 && kBBytes % 1024 == 0;  // every stage keeps the swizzle's 1 KB alignment
    }
};

using Cfg128x256 = Cfg<128, 256, 32, 64, 4, 3, 1, 32>;
using Cfg128x128 = Cfg<128, 128, 16, 64, 4, 4, 2, 16>;
// Two 16-k chunks: at 1024^2 this config runs one block (4 warps, one per scheduler) per SM, where nothing
// hides instruction-cache misses; the 32-k body (32 KB of code) ran at 23.5 TFLOPS, the 16-k one at 35.8.
using Cfg128x64 = Cfg<128, 64, 32, 32, 2, 3, 2, 16>;

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

template <class C>
__global__ void __launch_bounds__(C::kThreads, C::kMinBlocks)
    tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* const c,
               const int64_t ldc, const int M, const int N, const int K) {
    using Warp = typename C::Warp;
    extern __shared__ __align__(16) uint8_t smem_raw[];
    // The swizzled A boxes need 1 KB alignment; round up by pointer arithmetic so accesses stay LDS/STS.
    uint8_t* const smem = smem_raw + ((1024 - (mmk::smem_addr(smem_raw) & 1023)) & 1023);
    uint8_t* const a_ring = smem;                                   // [STAGES][BM][BK], swizzled
    uint8_t* const b_ring = smem + C::STAGES * C::kABytes;          // [STAGES][BK][BN]
    float* const at_s = reinterpret_cast<float*>(smem + C::STAGES * C::kStageBytes);  // [2][BK][SA]
    uint64_t* const full = reinterpret_cast<uint64_t*>(at_s + 2 * C::kATFloats);       // [STAGES]

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int bm, bn;
    mmk::tile_coords(blockIdx.x, mmk::tiles_of(M, C::BM), mmk::tiles_of(N, C::BN), kGroupM, bm, bn);
    const int m0 = bm * C::BM, n0 = bn * C::BN;
    const int k_tiles = (K - 1) / C::BK + 1;

    auto full_bar = [&](int kt) { return mmk::smem_addr(&full[kt % C::STAGES]); };
    auto issue = [&](int kt) {  // thread 0 only
        const int s = kt % C::STAGES;
        mmk::mbarrier_arrive_expect_tx(full_bar(kt), C::kStageBytes);
        mmk::bulk_tensor_load_2d(mmk::smem_addr(a_ring + s * C::kABytes), &a_map, full_bar(kt), kt * C::BK, m0);
        mmk::bulk_tensor_load_2d(mmk::smem_addr(b_ring + s * C::kBBytes), &b_map, full_bar(kt), n0, kt * C::BK);
    };
    if (tid == 0) {
        mmk::prefetch_tensor_map(&a_map);
        mmk::prefetch_tensor_map(&b_map);
        for (int s = 0; s < C::STAGES; ++s) mmk::mbarrier_init(mmk::smem_addr(&full[s]), 1);
        mmk::mbarrier_init_fence();
    }
    __syncthreads();
    if (tid == 0)
        for (int kt = 0; kt < C::STAGES && kt < k_tiles; ++kt) issue(kt);

    // ---- transposition of A: ring (row-major, swizzled) -> at_s (K-major) ----
    float4 in_transit[C::kBlocksPerThread][4];  // [block][row]: 4 k each
    auto transpose_load = [&](int kt) {
        const uint8_t* const src = a_ring + (kt % C::STAGES) * C::kABytes;
#pragma unroll
        for (int p = 0; p < C::kBlocksPerThread; ++p) {
            int q, ch;
            transpose_block_coords<C>(tid + p * C::kThreads, q, ch);
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const int row = 4 * q + r;
                const int swizzled = ch ^ (((row * C::kRowBytes) >> 7) & C::kSwizzleMask);
                in_transit[p][r] = *reinterpret_cast<const float4*>(src + row * C::kRowBytes + 16 * swizzled);
            }
        }
    };
    auto transpose_store = [&](int buffer) {
        float* const dst = at_s + buffer * C::kATFloats;
#pragma unroll
        for (int p = 0; p < C::kBlocksPerThread; ++p) {
            int q, ch;
            transpose_block_coords<C>(tid + p * C::kThreads, q, ch);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                *reinterpret_cast<float4*>(dst + (4 * ch + j) * C::SA + 4 * q) =
                    make_float4(mmk::f4_get(in_transit[p][0], j), mmk::f4_get(in_transit[p][1], j),
                                mmk::f4_get(in_transit[p][2], j), mmk::f4_get(in_transit[p][3], j));
        }
    };
    mmk::mbarrier_wait(full_bar(0), 0);
    transpose_load(0);
    transpose_store(0);
    __syncthreads();

    const int wm = warp / C::kWarpsN, wn = warp % C::kWarpsN;
    const int row0 = wm * C::WM + 4 * Warp::lane_m(lane);
    const int col0 = wn * C::WN + 4 * Warp::lane_n(lane);
    float acc[Warp::kTM][Warp::kTN];
#pragma unroll
    for (int i = 0; i < Warp::kTM; ++i)
#pragma unroll
        for (int j = 0; j < Warp::kTN; ++j) acc[i][j] = 0.f;

    for (int kt = 0; kt < k_tiles; ++kt) {
        const bool has_next = kt + 1 < k_tiles;
        if (has_next) {  // tile kt+1 was issued STAGES-1 iterations ago
            mmk::mbarrier_wait(full_bar(kt + 1), ((kt + 1) / C::STAGES) & 1);
            transpose_load(kt + 1);
        }
        const float* const a_k = at_s + (kt & 1) * C::kATFloats + row0;
        const float* const b_k = reinterpret_cast<const float*>(b_ring + (kt % C::STAGES) * C::kBBytes) + col0;
        float4 fa[2][C::FM], fb[2][C::FN];  // [register buffer][fragment]
        Warp::load(fa[0], fb[0], a_k, b_k);
#pragma unroll 1
        for (int chunk = 0; chunk < C::kChunks; ++chunk) {
            if (C::kChunks > 1 && chunk == C::kChunks / 2 && has_next) transpose_store((kt + 1) & 1);
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
                    if (has_next) transpose_store((kt + 1) & 1);
                }
                Warp::fma(acc, fa[k & 1], fb[k & 1]);
            });
        }
        // Publishes at_s[(kt+1)&1]; every thread is done with at_s[kt&1] and with ring stage kt%STAGES
        // (its A part was transposed last iteration, its B part read just now), so it can be refilled.
        __syncthreads();
        if (tid == 0 && kt + C::STAGES < k_tiles) {
            mmk::fence_proxy_async_shared();
            issue(kt + C::STAGES);
        }
    }

    Warp::template store<true>(acc, c + int64_t(m0) * ldc + n0, ldc, row0, col0, M - m0, N - n0);
}

// ---- host side: tensor maps -------------------------------------------------------------------------

// cuTensorMapEncodeTiled, fetched from the driver at run time so the library does not link libcuda.
using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiled encoder() {
    static EncodeTiled fn = [] {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found) !=
                cudaSuccess ||
            found != cudaDriverEntryPointSuccess) {
            cudaGetLastError();  // not sticky; clear it so the next check does not report it
            p = nullptr;
        }
        return reinterpret_cast<EncodeTiled>(p);
    }();
    return fn;
}

// A row-major rows x cols matrix (leading dimension ld floats) cut into boxes of box_rows x box_cols.
mm_status encode(CUtensorMap* map, const float* base, int64_t rows, int64_t cols, int64_t ld, int box_rows, int box_cols,
                 CUtensorMapSwizzle swizzle, const char* what) {
    const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
    const cuuint64_t strides[1] = {cuuint64_t(ld) * sizeof(float)};
    const cuuint32_t box[2] = {cuuint32_t(box_cols), cuuint32_t(box_rows)};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult r = encoder()(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box,
                                 element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                 CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return mm_fail(MM_ERR_CUDA, "tma: cuTensorMapEncodeTiled(%s) failed with CUresult %d", what, int(r));
    return MM_OK;
}

template <class C>
bool compiled_for_sm90() {
    static const bool yes = [] {
        cudaFuncAttributes attr{};
        const bool ok = cudaFuncGetAttributes(&attr, tma_kernel<C>) == cudaSuccess && attr.binaryVersion >= 90;
        cudaGetLastError();
        return ok;
    }();
    return yes;
}

// What stops the bulk-copy path on a device of compute capability `major`: the one check behind both
// requires_tma (which says why) and usable (which only needs yes or no).
enum class Missing { kNothing, kHopper, kSm90Code, kEncoder };

Missing missing_support(int major) {
    if (major < 9) return Missing::kHopper;
    if (!compiled_for_sm90<Cfg128x256>()) return Missing::kSm90Code;
    if (encoder() == nullptr) return Missing::kEncoder;
    return Missing::kNothing;
}

template <class C>
mm_status launch_impl(const char* name, const GemmArgs& g, cudaStream_t stream) {
    static_assert(C::valid(), "tile configuration violates the warp-tile / bulk-copy / transposition constraints");
    static_assert(C::kSmemBytes <= 227 * 1024, "dynamic shared memory above the sm_90 per-block limit");
    static_assert(C::kMinBlocks * (C::kSmemBytes + 1024) <= 228 * 1024, "kMinBlocks blocks must fit in shared memory");
    auto kernel = tma_kernel<C>;

    static std::atomic<uint64_t> configured_devices{0};
    mm_status st = mmk::raise_shared_memory_limit(reinterpret_cast<const void*>(kernel), C::kSmemBytes,
                                                  configured_devices, "cudaFuncSetAttribute(tma)");
    if (st != MM_OK) return st;

    // The maps describe this call's matrices, so they are encoded per launch: host work only (no GPU call),
    // enqueued ahead of the GPU in back-to-back launches. Its cost inside the timings was not measured.
    CUtensorMap a_map, b_map;
    constexpr CUtensorMapSwizzle kASwizzle = C::kRowBytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B;
    st = encode(&a_map, g.A, g.M, g.K, g.lda, C::BM, C::BK, kASwizzle, "A");
    if (st == MM_OK) st = encode(&b_map, g.B, g.K, g.N, g.ldb, C::BK, C::BN, CU_TENSOR_MAP_SWIZZLE_NONE, "B");
    if (st != MM_OK) return st;
    const unsigned grid = mmk::tiles_of(g.M, C::BM) * mmk::tiles_of(g.N, C::BN);
    kernel<<<grid, C::kThreads, C::kSmemBytes, stream>>>(a_map, b_map, g.C, g.ldc, g.M, g.N, g.K);
    return mm_check_launch(name);
}

template <class C>
constexpr pipelined::ConfigInfo info(const char* name) {
    return {name, C::BM, C::BN, C::BK, C::kThreads, C::STAGES, C::kMinBlocks};
}

constexpr pipelined::ConfigInfo kConfigs[tma::kNumConfigs] = {
    info<Cfg128x256>("tma 128x256x32"),
    info<Cfg128x128>("tma 128x128x16"),
    info<Cfg128x64>("tma 128x64x32"),
};

}  // namespace

namespace tma {

const pipelined::ConfigInfo& config_info(int id) { return kConfigs[id]; }

bool usable(const GemmArgs& g) {
    // Tensor-map limits: 16-byte aligned base and row pitch, row pitch below 2^40 bytes.
    constexpr int64_t kMaxLd = (int64_t(1) << 40) / int64_t(sizeof(float));
    int major = 0;
    return vector_aligned(g) && g.lda < kMaxLd && g.ldb < kMaxLd && mmk::compute_major(&major) == MM_OK &&
           missing_support(major) == Missing::kNothing;
}

mm_status launch_config(int id, const GemmArgs& g, cudaStream_t stream) {
    const char* name = kConfigs[id].name;
    switch (id) {
        case kCfg128x256:
            return launch_impl<Cfg128x256>(name, g, stream);
        case kCfg128x128:
            return launch_impl<Cfg128x128>(name, g, stream);
        case kCfg128x64:
            return launch_impl<Cfg128x64>(name, g, stream);
        default:
            return mm_fail(MM_ERR_INVALID_ARGUMENT, "tma: no tile configuration %d", id);
    }
}

}  // namespace tma

// Registry requirement: the bulk-copy instructions exist from compute capability 9.0 (Hopper) on.
mm_status requires_tma() {
    int major = 0;
    const mm_status st = mmk::compute_major(&major);
    if (st != MM_OK) return st;
    switch (missing_support(major)) {
        case Missing::kNothing:
            return MM_OK;
        case Missing::kHopper:
            return mm_fail(MM_ERR_UNAVAILABLE, "tma needs a GPU of compute capability 9.0 or newer (this one is %d.x)",
                           major);
        case Missing::kSm90Code:
            return mm_fail(MM_ERR_UNAVAILABLE, "tma: this libmatmul.so was built without sm_90 code (make ARCH=sm_90)");
        case Missing::kEncoder:
            return mm_fail(MM_ERR_UNAVAILABLE,
                           "tma: the driver has no cuTensorMapEncodeTiled (CUDA 12 driver or newer needed)");
    }
    return MM_OK;
}

// Registry entry point: the 128x256 configuration alone. Operands the copy engine cannot describe
// (unaligned base or leading dimension; the host path never makes those) go to pipelined's 128x256.
mm_status launch_tma(const GemmArgs& g, cudaStream_t stream) {
    if (!tma::usable(g)) return splitk::run(pipelined::kCfg128x256, 1, g, stream);
    return tma::launch_config(tma::kCfg128x256, g, stream);
}
