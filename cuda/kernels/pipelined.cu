// pipelined: multi-stage cp.async pipeline around the warp-tiled micro-kernel, the fifth rung.
//
// Technique: the warptile compute (K-major A and row-major B in shared memory, warp tiles, 4x4 fragments,
// register double-buffered fragments: warp_tile.cuh) fed by a STAGES-deep ring of shared-memory tiles that
// are filled with cp.async: global -> shared without passing through registers, so the copies of the next
// STAGES-1 tiles are in flight while this one is multiplied, and no registers are spent on staging (the
// budget goes to bigger per-thread tiles: 8x16). One barrier per K tile.
//
// Changes vs warptile: cp.async instead of ld.global + st.shared; 3+ stages instead of 2; dynamic shared
// memory; tile shape as template parameters with several instantiations (big tiles for big squares, small
// ones so small shapes still fill 132 SMs); blocks rasterized in bands of 8 tile rows for L2 reuse; K
// slicing (blockIdx.z) for splitk.cu.
//
// Transposing A with cp.async: cp.async cannot transpose a 16-byte vector, but a 4-byte cp.async can write
// one float anywhere, so A is copied element-wise straight into the K-major layout the micro-kernel wants.
// The alternative, A row-major in shared memory, makes the micro-kernel read a thread's 4 rows at one k as
// 4 scalars (4x the LDS count for A) or read 4 k's per row, which conflicts (row stride a multiple of 16
// floats puts all 8 rows of a fragment read on 2 bank groups) unless swizzled. Element-wise copies cost
// instructions only on the copy side: BM*BK/threads 4-byte copies per thread per K tile (16 for 128x128)
// against 16*TM*TN FMAs (2048), under 1% more issue slots. The map: lane l of warp w copies
// A[row 4w + l/8 + r*threads/8][k 8q + l%8], so a warp reads 4 rows x 32 contiguous bytes (full sectors)
// and writes a_s[k][row] at k*(BM+4) + row: banks 4*(l%8) + l/8 (mod 32) for BM % 32 == 0, all distinct.
// Elements outside A (rows >= M, k >= K) are zero-filled through the src-size operand, which also makes
// unaligned A need no separate path. B is copied in 16-byte chunks when kAligned (a chunk that is not fully
// inside B falls back to 4-byte zero-filling copies); unaligned B uses a second, element-wise map in which
// lane l copies column l of a row, so the 4-byte copies stay coalesced and their shared stores
// conflict-free (a chunk map would have 4 copies per thread hitting banks 4 apart: 4-way conflicts).
//
// Model (per instantiation, see kConfigs below): a K tile moves (BM+BN)*BK*4 bytes for 2*BM*BN*BK FLOP:
// 128x256 -> 42.7 FLOP/B, 128x128 -> 32, 128x64 -> 21.3, 64x64 -> 16. Per k a thread does FM+FN LDS.128
// for 16*FM*FN FMAs (8x16: 6 per 128). Shared memory per block: STAGES*BK*((BM+4) + BN)*4 bytes.
// Registers: 8x16 tiles hold 128 accumulators + 2x24 fragment floats (~200 registers, so 8 warps/SM);
// 8x8 and 4x8 tiles fit under 128 (128x64: 4 blocks = 16 warps/SM; 64x64: 5 blocks = 20 warps/SM).
#include <atomic>

#include "device_props.cuh"
#include "pipelined.cuh"
#include "warp_tile.cuh"

namespace {

constexpr unsigned kGroupM = 8;  // tile rows per rasterization band

template <int BM_, int BN_, int BK_, int WM_, int WN_, int FM_, int FN_, int STAGES_, int MIN_BLOCKS_,
          mmk::FmaOrder ORDER_>
struct Cfg {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, FM = FM_, FN = FN_;
    static constexpr int STAGES = STAGES_, kMinBlocks = MIN_BLOCKS_;
    static constexpr int LM = WM / (4 * FM), LN = WN / (4 * FN);
    using Warp = mmk::WarpTile<FM, FN, LM, LN, ORDER_>;
    static constexpr int kWarpsM = BM / WM, kWarpsN = BN / WN;
    static constexpr int kThreads = 32 * kWarpsM * kWarpsN;
    static constexpr int SA = BM + 4;  // a_s row stride (k-major): see the A map in the header
    static constexpr int SB = BN;      // b_s rows are written and read whole: no padding needed
    static constexpr int kSmemBytes = STAGES * BK * (SA + SB) * int(sizeof(float));
    // A copy map: thread t copies k = 8q + t%8 of rows t/8 + r*kARowStep, q < kAKGroups, r < kARowPasses.
    static constexpr int kARowStep = kThreads / 8;
    static constexpr int kARowPasses = BM / kARowStep;
    static constexpr int kAKGroups = BK / 8;
    // B copy map: thread t copies the 4 columns 4*(t % kBChunks) of rows t/kBChunks + p*kBRowStep.
    static constexpr int kBChunks = BN / 4;
    static constexpr int kBRowStep = kThreads / kBChunks;
    static constexpr int kBPasses = BK / kBRowStep;
    // Unaligned-B copy map (4-byte copies): thread t copies column t % BN of rows t/BN + p*kUBRowStep.
    static constexpr int kUBRowStep = kThreads / BN;
    static constexpr int kUBPasses = BK / (kUBRowStep > 0 ? kUBRowStep : 1);

    static constexpr bool valid() {
        return (BM & (BM - 1)) == 0 && (BN & (BN - 1)) == 0 && (BK & (BK - 1)) == 0 &&  // no overflow at INT32_MAX
               BM % WM == 0 && BN % WN == 0 && WM % (4 * FM) == 0 && WN % (4 * FN) == 0 && LM * LN == 32 &&
               Warp::kWM == WM && Warp::kWN == WN && kThreads % 32 == 0 && kThreads <= 1024 &&
               BK % 8 == 0 && BM % 32 == 0 && BM % kARowStep == 0 &&  // A map: 4 rows x 8 k per warp pass
               kThreads % kBChunks == 0 && BK % kBRowStep == 0 && BN % 4 == 0 && STAGES >= 3 &&
               kThreads % BN == 0 && BK % kUBRowStep == 0 &&  // unaligned-B map
               SA % 4 == 0 && SA % 32 == 4 && (STAGES * BK * SA * int(sizeof(float))) % 16 == 0;
    }
};

// The instantiated configurations, in ConfigId order.
// FMA order (warp_tile.cuh), by H200 measurements of both orders: serpentine made 128x256 4.5-5% faster at
// 2048^3-8192^3 and 64x64 1-18% faster at 512^3-4096^3; it made 128x64 5-6% slower at 3072^3-8192^3 and
// 128x128 36% slower at 1024^3 (4% faster from 2048^3 on), so those two keep rows.
using mmk::FmaOrder;
using Cfg128x256 = Cfg<128, 256, 16, 64, 64, 2, 4, 4, 1, FmaOrder::kSerpentine>;
using Cfg128x128 = Cfg<128, 128, 16, 64, 64, 2, 4, 4, 2, FmaOrder::kRows>;
using Cfg128x64 = Cfg<128, 64, 16, 64, 32, 2, 2, 4, 4, FmaOrder::kRows>;
using Cfg64x64 = Cfg<64, 64, 16, 32, 32, 1, 2, 4, 5, FmaOrder::kSerpentine>;

template <class C, bool kAligned>
__global__ void __launch_bounds__(C::kThreads, C::kMinBlocks)
    pipelined_kernel(const GemmArgs g, const int ktiles_per_split, float* const out, const int64_t ldo,
                     const int64_t out_split_stride) {
    using Warp = typename C::Warp;
    extern __shared__ __align__(16) float smem[];
    float* const a_s = smem;                                // [STAGES][BK][SA]
    float* const b_s = smem + C::STAGES * C::BK * C::SA;    // [STAGES][BK][SB]
    constexpr int kAStage = C::BK * C::SA, kBStage = C::BK * C::SB;  // floats per stage

    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int bm, bn;
    mmk::tile_coords(blockIdx.x, mmk::tiles_of(g.M, C::BM), mmk::tiles_of(g.N, C::BN), kGroupM, bm, bn);
    const int m0 = bm * C::BM, n0 = bn * C::BN;
    const int m_rem = g.M - m0, n_rem = g.N - n0;  // > 0
    const int k_tiles = (g.K - 1) / C::BK + 1;
    const int64_t slice0 = int64_t(blockIdx.z) * ktiles_per_split;
    const int kt_begin = int(min(slice0, int64_t(k_tiles)));
    const int kt_end = int(min(slice0 + ktiles_per_split, int64_t(k_tiles)));

    // ---- copy maps (see the header), 64-bit bases computed once ----
    const int a_kk = tid % 8, a_r = tid / 8;
    const float* const a_src = g.A + (int64_t(m0) + a_r) * g.lda + a_kk;
    const int64_t a_pass = int64_t(C::kARowStep) * g.lda;
    const uint32_t a_dst = mmk::smem_addr(a_s + a_kk * C::SA + a_r);
    const int b_c = 4 * (tid % C::kBChunks), b_r = tid / C::kBChunks;
    const float* const b_src = g.B + n0 + b_c + int64_t(b_r) * g.ldb;
    const int64_t b_pass = int64_t(C::kBRowStep) * g.ldb;
    const uint32_t b_dst = mmk::smem_addr(b_s + b_r * C::SB + b_c);
    const int b_cols = n_rem - b_c;
    // Unaligned-B copy map: thread t copies column t % BN of rows t/BN + p*kUBRowStep.
    const int ub_c = tid % C::BN, ub_r = tid / C::BN;
    const float* const ub_src = g.B + n0 + ub_c + int64_t(ub_r) * g.ldb;
    const int64_t ub_pass = int64_t(C::kUBRowStep) * g.ldb;
    const uint32_t ub_dst = mmk::smem_addr(b_s + ub_r * C::SB + ub_c);
    const bool a_full = m_rem >= C::BM, b_full = n_rem >= C::BN;

    auto load_tile = [&](int kt, int stage) {
        const int k0 = kt * C::BK, k_rem = g.K - k0;
        const bool k_full = k_rem >= C::BK;
        const uint32_t a_st = a_dst + stage * (kAStage * 4);
        const uint32_t b_st = b_dst + stage * (kBStage * 4);
        const float* const a_k = a_src + k0;
        const float* const b_k = b_src + int64_t(k0) * g.ldb;
        if (a_full && k_full) {
#pragma unroll
            for (int q = 0; q < C::kAKGroups; ++q)
#pragma unroll
                for (int r = 0; r < C::kARowPasses; ++r)
                    mmk::cp_async4(a_st + 4 * (8 * q * C::SA + r * C::kARowStep), a_k + r * a_pass + 8 * q);
        } else {
#pragma unroll
            for (int q = 0; q < C::kAKGroups; ++q)
#pragma unroll
                for (int r = 0; r < C::kARowPasses; ++r) {
                    const bool ok = a_r + r * C::kARowStep < m_rem && 8 * q + a_kk < k_rem;
                    mmk::cp_async4_zfill(a_st + 4 * (8 * q * C::SA + r * C::kARowStep),
                                         ok ? a_k + r * a_pass + 8 * q : g.A, ok);
                }
        }
        if constexpr (kAligned) {
            if (b_full && k_full) {
#pragma unroll
                for (int p = 0; p < C::kBPasses; ++p)
                    mmk::cp_async16(b_st + 4 * (p * C::kBRowStep * C::SB), b_k + p * b_pass);
            } else {
#pragma unroll
                for (int p = 0; p < C::kBPasses; ++p) {
                    const uint32_t dst = b_st + 4 * (p * C::kBRowStep * C::SB);
                    const float* const src = b_k + p * b_pass;
                    const bool row_ok = b_r + p * C::kBRowStep < k_rem;
                    if (row_ok && b_cols >= 4) {
                        mmk::cp_async16(dst, src);
                    } else {
#pragma unroll
                        for (int j = 0; j < 4; ++j) {
                            const bool ok = row_ok && j < b_cols;
                            mmk::cp_async4_zfill(dst + 4 * j, ok ? src + j : g.B, ok);
                        }
                    }
                }
            }
        } else {
            // Unaligned B: element-wise copies, lane-consecutive columns (coalesced, conflict-free).
            const uint32_t ub_st = ub_dst + stage * (kBStage * 4);
            const float* const ub_k = ub_src + int64_t(k0) * g.ldb;
            if (b_full && k_full) {
#pragma unroll
                for (int p = 0; p < C::kUBPasses; ++p)
                    mmk::cp_async4(ub_st + 4 * (p * C::kUBRowStep * C::SB), ub_k + p * ub_pass);
            } else {
#pragma unroll
                for (int p = 0; p < C::kUBPasses; ++p) {
                    const bool ok = ub_r + p * C::kUBRowStep < k_rem && ub_c < n_rem;
                    mmk::cp_async4_zfill(ub_st + 4 * (p * C::kUBRowStep * C::SB), ok ? ub_k + p * ub_pass : g.B, ok);
                }
            }
        }
    };

    float acc[Warp::kTM][Warp::kTN];
#pragma unroll
    for (int i = 0; i < Warp::kTM; ++i)
#pragma unroll
        for (int j = 0; j < Warp::kTN; ++j) acc[i][j] = 0.f;

    // Prologue: tiles kt_begin .. kt_begin+STAGES-2 into stages 0 .. STAGES-2. One commit group per tile
    // slot, empty past the end, so that "group i holds tile kt_begin+i" and wait_group counts stay exact.
    int load_kt = kt_begin;
#pragma unroll
    for (int s = 0; s < C::STAGES - 1; ++s, ++load_kt) {
        if (load_kt < kt_end) load_tile(load_kt, s);
        mmk::cp_async_commit();
    }
    int load_stage = C::STAGES - 1;
    mmk::cp_async_wait<C::STAGES - 2>();  // group 0 (tile kt_begin) has landed for this thread ...
    __syncthreads();                      // ... and for every thread

    const int wm = warp / C::kWarpsN, wn = warp % C::kWarpsN;
    const int row0 = wm * C::WM + 4 * Warp::lane_m(lane);
    const int col0 = wn * C::WN + 4 * Warp::lane_n(lane);
    int read_stage = 0;

    float4 fa[2][C::FM], fb[2][C::FN];  // [register buffer][fragment]
    Warp::load(fa[0], fb[0], a_s + row0, b_s + col0);
    const int n_tiles = kt_end - kt_begin;
    for (int it = 0; it < n_tiles; ++it) {
        // Refill the stage read during iteration it-1: every thread has passed the barrier that followed
        // its last read of it (at k = BK-1 of iteration it-1).
        if (load_kt < kt_end) load_tile(load_kt, load_stage);
        mmk::cp_async_commit();
        ++load_kt;
        load_stage = load_stage + 1 == C::STAGES ? 0 : load_stage + 1;

        const float* const a_k = a_s + read_stage * kAStage + row0;
        const float* const b_k = b_s + read_stage * kBStage + col0;
#pragma unroll
        for (int k = 0; k < C::BK; ++k) {
            if (k + 1 < C::BK) {
                Warp::load(fa[(k + 1) & 1], fb[(k + 1) & 1], a_k + (k + 1) * C::SA, b_k + (k + 1) * C::SB);
            } else {
                // All reads of this stage are issued (the k = BK-1 fragments were loaded at k = BK-2).
                // Committed groups: STAGES-1 + it+1, so waiting down to STAGES-2 in flight means tile it+1
                // has landed; the barrier publishes it and frees this stage for the next refill. Then the
                // next tile's k = 0 fragments load under this k's FMAs.
                mmk::cp_async_wait<C::STAGES - 2>();
                __syncthreads();
                read_stage = read_stage + 1 == C::STAGES ? 0 : read_stage + 1;
                Warp::load(fa[(k + 1) & 1], fb[(k + 1) & 1], a_s + read_stage * kAStage + row0,
                           b_s + read_stage * kBStage + col0);
            }
            Warp::fma(acc, fa[k & 1], fb[k & 1]);
        }
    }
    // Past the last tile the fragment loads above read a stale stage: harmless, nothing writes it (every
    // later commit group is empty) and the values are never used.

    Warp::template store<kAligned>(acc, out + int64_t(blockIdx.z) * out_split_stride + int64_t(m0) * ldo + n0, ldo,
                                   row0, col0, m_rem, n_rem);
}

template <class C, bool kAligned>
mm_status launch_impl(const char* name, const GemmArgs& g, int splits, int ktiles_per_split, float* out,
                      int64_t ldo, int64_t out_split_stride, cudaStream_t stream) {
    static_assert(C::valid(), "tile configuration violates the copy-map / warp-tile constraints (see Cfg::valid)");
    static_assert(C::kSmemBytes <= 227 * 1024, "dynamic shared memory above the sm_90 per-block limit");
    static_assert(C::kMinBlocks * (C::kSmemBytes + 1024) <= 228 * 1024, "kMinBlocks blocks must fit in shared memory");
    static_assert(C::BK % 2 == 0, "register double-buffering alternates fragment buffers across k");
    auto kernel = pipelined_kernel<C, kAligned>;

    static std::atomic<uint64_t> configured_devices{0};
    const mm_status st = mmk::raise_shared_memory_limit(reinterpret_cast<const void*>(kernel), C::kSmemBytes,
                                                        configured_devices, "cudaFuncSetAttribute(pipelined)");
    if (st != MM_OK) return st;

    const dim3 grid(mmk::tiles_of(g.M, C::BM) * mmk::tiles_of(g.N, C::BN), 1, unsigned(splits));
    kernel<<<grid, C::kThreads, C::kSmemBytes, stream>>>(g, ktiles_per_split, out, ldo, out_split_stride);
    return mm_check_launch(name);
}

template <class C>
mm_status launch_cfg(const char* name, const GemmArgs& g, int splits, int ktiles_per_split, float* out, int64_t ldo,
                     int64_t out_split_stride, cudaStream_t stream) {
    // A is copied element-wise, so only B (read) and the output (written) need the vector promise.
    auto aligned16 = [](const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; };
    const bool aligned = aligned16(g.B) && g.ldb % 4 == 0 && aligned16(out) && ldo % 4 == 0;
    return aligned ? launch_impl<C, true>(name, g, splits, ktiles_per_split, out, ldo, out_split_stride, stream)
                   : launch_impl<C, false>(name, g, splits, ktiles_per_split, out, ldo, out_split_stride, stream);
}

template <class C>
constexpr pipelined::ConfigInfo info(const char* name) {
    return {name, C::BM, C::BN, C::BK, C::kThreads, C::STAGES, C::kMinBlocks};
}

constexpr pipelined::ConfigInfo kConfigs[pipelined::kNumConfigs] = {
    info<Cfg128x256>("pipelined 128x256x16"),
    info<Cfg128x128>("pipelined 128x128x16"),
    info<Cfg128x64>("pipelined 128x64x16"),
    info<Cfg64x64>("pipelined 64x64x16"),
};

mm_status launch_plain(int id, const GemmArgs& g, cudaStream_t stream) {
    return pipelined::launch_config(id, g, 1, int((g.K - 1) / kConfigs[id].bk + 1), g.C, g.ldc, 0, stream);
}

}  // namespace

namespace pipelined {

const ConfigInfo& config_info(int id) { return kConfigs[id]; }

mm_status launch_config(int id, const GemmArgs& g, int splits, int ktiles_per_split, float* out, int64_t ldo,
                        int64_t out_split_stride, cudaStream_t stream) {
    const char* name = kConfigs[id].name;
    switch (id) {
        case kCfg128x256:
            return launch_cfg<Cfg128x256>(name, g, splits, ktiles_per_split, out, ldo, out_split_stride, stream);
        case kCfg128x128:
            return launch_cfg<Cfg128x128>(name, g, splits, ktiles_per_split, out, ldo, out_split_stride, stream);
        case kCfg128x64:
            return launch_cfg<Cfg128x64>(name, g, splits, ktiles_per_split, out, ldo, out_split_stride, stream);
        case kCfg64x64:
            return launch_cfg<Cfg64x64>(name, g, splits, ktiles_per_split, out, ldo, out_split_stride, stream);
        default:
            return mm_fail(MM_ERR_INVALID_ARGUMENT, "pipelined: no tile configuration %d", id);
    }
}

}  // namespace pipelined

// Registry entry point: the 128x128 configuration alone (choosing per shape is `best`'s job).
mm_status launch_pipelined(const GemmArgs& g, cudaStream_t stream) { return launch_plain(pipelined::kCfg128x128, g, stream); }
