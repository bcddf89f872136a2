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
// 2 blocks/SM), 128x64x32 (3 stages, 4 warps of 8x8 per thread, 2 blocks/SM) and 128x256x32 again with a
// 16-k body (faster at 2048^3, slower from 4096^3 on: the measurements are in tma_tile.cuh). The two
// 128x256 configurations write their tile through shared memory (the ring, free after the last K tile):
// scalar shared stores, a barrier, then float4 rows to C, which lets nvcc place the accumulators in any
// register (tma_tile.cuh, TileLoop::staged_store).
//
// Model: a K tile moves (BM + BN) * BK * 4 bytes for 2 * BM * BN * BK FLOP (128x256: 42.7 FLOP/B,
// 128x128: 32, 128x64: 21.3) with 2 copy instructions per block. Per k a thread issues FM + FN LDS.128 for
// 16 * FM * FN FFMA (8x16: 6 per 128), plus per tile 4 LDS.128 + 4 STS.128 per transposed block (one or
// two blocks per thread). Shared memory: STAGES * (BM + BN) * BK * 4 (ring) + 2 * BK * (BM + 4) * 4
// (transposed A) + barriers + 1 KB alignment: 178 KB, 82 KB and 106 KB; the staged tile (BM x (BN + 4)
// floats, 130 KB) reuses the 144 KB ring. Registers (make resources): 219 and 218 for the staged 128x256
// configs, 223 for 128x128 (128 accumulators, 2 x 24 fragment floats, 16 for the block in transit), 195 for 8x8.
// The order of each k's FMAs is a tile parameter too (tma_tile.cuh): 128x64 runs the serpentine order of
// warp_tile.cuh, which the H200 measured 2-4% faster there; 128x128 keeps rows; the staged 128x256 configs
// run 2x4 blocks (32-k body) and rows (16-k body).
#include <atomic>

#include "splitk.cuh"
#include "tma.cuh"
#include "tma_tile.cuh"

namespace {

using tmak::Cfg128x128;
using tmak::Cfg128x256Staged;
using tmak::Cfg128x256k16;
using tmak::Cfg128x64;

// One block per output tile, its whole K range.
template <class C>
__global__ void __launch_bounds__(C::kThreads, C::kMinBlocks)
    tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* const c,
               const int64_t ldc, const int M, const int N, const int K) {
    extern __shared__ __align__(16) uint8_t smem_raw[];
    int bm, bn;
    mmk::tile_coords(blockIdx.x, mmk::tiles_of(M, C::BM), mmk::tiles_of(N, C::BN), tmak::kGroupM, bm, bn);
    const int m0 = bm * C::BM, n0 = bn * C::BN;
    tmak::TileLoop<C> loop(smem_raw, &a_map, &b_map);
    typename tmak::TileLoop<C>::Acc acc;
    loop.accumulate(m0, n0, 0, (K - 1) / C::BK + 1, acc);
    loop.store(acc, c, ldc, m0, n0, M, N);
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
    if (!compiled_for_sm90<Cfg128x256Staged>()) return Missing::kSm90Code;
    if (encoder() == nullptr) return Missing::kEncoder;
    return Missing::kNothing;
}

template <class C>
mm_status launch_impl(const char* name, const GemmArgs& g, cudaStream_t stream) {
    static std::atomic<uint64_t> configured_devices{0};
    CUtensorMap a_map, b_map;
    const mm_status st = tmak::prepare_launch<C>(reinterpret_cast<const void*>(tma_kernel<C>), configured_devices,
                                                 "cudaFuncSetAttribute(tma)", g, &a_map, &b_map);
    if (st != MM_OK) return st;
    const unsigned grid = mmk::tiles_of(g.M, C::BM) * mmk::tiles_of(g.N, C::BN);
    tma_kernel<C><<<grid, C::kThreads, C::kSmemBytes, stream>>>(a_map, b_map, g.C, g.ldc, g.M, g.N, g.K);
    return mm_check_launch(name);
}

constexpr pipelined::ConfigInfo kConfigs[tma::kNumConfigs] = {
    tmak::config_info<Cfg128x256Staged>("tma 128x256x32"),
    tmak::config_info<Cfg128x128>("tma 128x128x16"),
    tmak::config_info<Cfg128x64>("tma 128x64x32"),
    tmak::config_info<Cfg128x256k16>("tma 128x256x32 k16"),
};

}  // namespace

namespace tma {

const pipelined::ConfigInfo& config_info(int id) { return kConfigs[id]; }

mm_status encode_maps(const GemmArgs& g, int bm, int bn, int bk, CUtensorMap* a_map, CUtensorMap* b_map) {
    const CUtensorMapSwizzle a_swizzle = bk * 4 == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B;
    mm_status st = encode(a_map, g.A, g.M, g.K, g.lda, bm, bk, a_swizzle, "A");
    if (st == MM_OK) st = encode(b_map, g.B, g.K, g.N, g.ldb, bk, bn, CU_TENSOR_MAP_SWIZZLE_NONE, "B");
    return st;
}

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
            return launch_impl<Cfg128x256Staged>(name, g, stream);
        case kCfg128x128:
            return launch_impl<Cfg128x128>(name, g, stream);
        case kCfg128x64:
            return launch_impl<Cfg128x64>(name, g, stream);
        case kCfg128x256k16:
            return launch_impl<Cfg128x256k16>(name, g, stream);
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
