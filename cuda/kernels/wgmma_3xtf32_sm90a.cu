// wgmma_3xtf32: fp32 accuracy from TF32 tensor cores (3xTF32), on the persistent wgmma kernel of wgmma_tf32.
//
// Technique: each operand value x is split once into big = tf32(x) and small = tf32(x - big), both rounded to nearest
// (core/mma/tf32_mma_sync.cuh, split_tf32): big + small is x to within 2^-22 |x|. The product is
// big·big + big·small + small·big; the dropped small·small term is below 2^-22 of each product. A is split in the
// consumers' registers as it is loaded; B is split by one gather over global memory before the kernel into two
// K-major copies, big and small, which every stage brings in beside A. Each consumer warpgroup issues the three
// wgmma m64n128k8 per k8 step into one accumulator set and, every kPromoteKTiles K tiles, retires them and adds
// the set into a second, fp32 register total (promotion): the tensor cores' own accumulation loses precision over
// long chains (measured in ../shared/h200-baseline.md's 3xTF32 section), a short chain on the tensor cores plus
// fp32 adds outside them does not.
//
// Changes vs wgmma_tf32: three MMAs per step instead of one; A split instead of rounded; B split into two copies
// instead of rounded into one; the promoted fp32 total; 128 x 128 tiles (the accumulators, the total and two sets
// of big and small A fragments do not fit a 64 x 256 warpgroup tile); no producer warpgroup: ptxas compiles every
// thread to the block's register cap at entry whatever setmaxnreg later gives (168 for 288 or 384 threads: a
// 288-thread build spilled), and a consumer needs about 230 (64 accumulators, 64 for the total, 64 for the
// fragments, the flags and addresses), so the block is the two consumer warpgroups alone
// (cap 255) and their first thread issues the copies, refilling the stages both warpgroups gave back at the end
// of each promotion chunk;
// no K slices for accuracy (promotion bounds the chains).
//
// Where the split loses accuracy: an |x| within half a TF32 step of the fp32 maximum rounds up to big = Inf
// (small is 0 there), and an |x| near the fp32 underflow threshold has a small part below the smallest subnormal,
// lost, so such an x counts as big alone (TF32 accuracy). Inf does not survive the split (Inf * b becomes
// Inf * big(b) + Inf * small(b), whose signs may differ): the rows of A and columns of B that hold an Inf or NaN are
// flagged (A's by the consumers as they load it, B's by the gather) and their rows and columns of C recomputed in
// plain fp32 afterwards (core/epilogue/nonfinite_fixup.h), so Inf and NaN come out as in NumPy.
//
// Tile: 128 x 128 x 32, 4 stages of 48 KiB (A, B big, B small, 16 KiB each), 256 threads (two consumer
// warpgroups; thread 0 also issues the copies), one block per SM, promotion every kPromoteKTiles = 2 K tiles (64 K).
//
// NOT YET RUN ON A GPU: it compiles (HGMMA.64x128x8.F32.TF32, no spills); correctness, accuracy and speed are
// unmeasured.
#include <type_traits>

#include "core/copy/bulk_tensor.cuh"
#include "core/copy/cp_async.cuh"
#include "core/copy/tensor_map.h"
#include "core/device.h"
#include "core/device_buffer.h"
#include "core/epilogue/direct_store.cuh"
#include "core/epilogue/nonfinite_fixup.h"
#include "core/layout/rearrange.h"
#include "core/mma/wgmma_tf32.cuh"
#include "core/problem.h"
#include "core/schedule/persistent_tiles.cuh"
#include "core/schedule/split_k.h"
#include "core/unroll.cuh"

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 32, kStages = 4;
constexpr int kPromoteKTiles = 1;  // K tiles per promotion chunk (32 K); any count >= 1
constexpr int kConsumers = 2;  // warpgroups, 64 rows each
constexpr int kThreads = 128 * (kConsumers + 1);  // and one producer warpgroup, of which one thread works
constexpr int kProducerRegisters = 40, kConsumerRegisters = 232;
static_assert(128 * (kConsumers * kConsumerRegisters + kProducerRegisters) <= 65536, "the register file");
constexpr int kAccumulators = kBN / 2;
constexpr int kTileBytes = 128 * kBK * int(sizeof(float));  // A, B big and B small: 128 rows of one K tile each
constexpr int kSwizzleAtomBytes = 1024;

static_assert(kBM == 128 && kBN == 128 && kBK * sizeof(float) == 128, "128-row tiles of one 128-byte swizzled row");
static_assert(kTileBytes % kSwizzleAtomBytes == 0, "aligned tiles");

struct Storage {
    float a[kStages][kTileBytes / 4];
    float b_big[kStages][kTileBytes / 4];
    float b_small[kStages][kTileBytes / 4];
    uint64_t full[kStages];   // A, B big and B small landed (copy bytes)
    uint64_t empty[kStages];  // the consumers' MMAs that read the stage retired (one arrival per consumer warp)
};
constexpr int kSmemBytes = kSwizzleAtomBytes + int(sizeof(Storage));
static_assert(gemm::fits_shared_memory(kSmemBytes, 1), "one block per SM");

using Ring = gemm::RingPosition<kStages>;

struct Maps {
    CUtensorMap a, b_big, b_small;
};

// The producer warp's one working thread: every K tile of the block's units into the ring, in the order the
// consumers read them, each stage once the consumers gave it back (the first pass finds every stage free).
__device__ __forceinline__ void producer(const Maps* maps, Storage& st, const gemm::PersistentSchedule& s) {
    Ring r;
    for (int u = blockIdx.x; u < s.units(); u += gridDim.x) {
        const gemm::TileUnit w = gemm::unit_at<kBM, kBN>(s, u);
        for (int kt = w.kt0; kt < w.kt0 + w.ktiles; ++kt, r.advance()) {
            gemm::mbarrier_wait(gemm::smem_addr(&st.empty[r.stage]), r.phase ^ 1);
            const uint32_t full = gemm::smem_addr(&st.full[r.stage]);
            gemm::mbarrier_arrive_expect_tx(full, 3 * kTileBytes);
            gemm::bulk_tensor_load_2d(gemm::smem_addr(st.a[r.stage]), &maps->a, full, kt * kBK, w.m0);
            gemm::bulk_tensor_load_2d(gemm::smem_addr(st.b_big[r.stage]), &maps->b_big, full, kt * kBK, w.n0);
            gemm::bulk_tensor_load_2d(gemm::smem_addr(st.b_small[r.stage]), &maps->b_small, full, kt * kBK, w.n0);
        }
    }
}

template <bool kAligned>
__device__ __forceinline__ void consumer(Storage& st, const gemm::PersistentSchedule& s, gemm::SliceOutput out,
                                         int* a_row_flags, int consumer_index) {
    constexpr int kSteps = kBK / gemm::kWgmmaK;
    // Split A fragment register sets: one when every tile is a promotion chunk (its MMAs retire before the next
    // tile's split), else two, tile i of a unit using set i % 2 while tile i - 1's MMAs may still run. K tiles per
    // pass of the unrolled loop: whole chunks, and whole pairs of tiles where there are two sets, so that every
    // tile's set is known at compile time.
    constexpr int kSets = kPromoteKTiles == 1 ? 1 : 2;
    constexpr int kUnroll = kSets == 2 && kPromoteKTiles % 2 ? 2 * kPromoteKTiles : kPromoteKTiles;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
    const int a_row = 64 * consumer_index + 16 * warp + lane % 16, a_half = lane / 16;
    Ring r;
    float acc[kAccumulators], total[kAccumulators];
    uint32_t big[kSets][kSteps][4], small[kSets][kSteps][4];
    uint32_t raw[kSteps][4];  // the next K tile's A fragments as loaded
    for (int u = blockIdx.x; u < s.units(); u += gridDim.x) {
        const gemm::TileUnit w = gemm::unit_at<kBM, kBN>(s, u);
        // The rows of A this lane's fragment registers hold (rows past M are zero-filled, so never flagged).
        const int fragment_row = w.m0 + 64 * consumer_index + 16 * warp + lane / 4;
#pragma unroll
        for (int i = 0; i < kAccumulators; ++i) total[i] = 0.0f;
        // The A fragments of the K tile at ring position p into raw, once its copies landed.
        const auto load_fragments = [&](Ring p) {
            gemm::mbarrier_wait(gemm::smem_addr(&st.full[p.stage]), p.phase);
            const uint32_t a_rows = gemm::smem_addr(st.a[p.stage]) + a_row * 128;
#pragma unroll
            for (int k8 = 0; k8 < kSteps; ++k8)
                gemm::ldmatrix_a_fp32(raw[k8], a_rows + (((2 * k8 + a_half) ^ (a_row % 8)) << 4));
        };
        // raw split into register set kSet; rows holding an Inf or NaN flagged.
        const auto split_fragments = [&](auto set) {
            constexpr int kSet = decltype(set)::value;
            bool nonfinite[2] = {false, false};  // in this lane's rows g and g + 8 (fragment registers 0, 2 and 1, 3)
#pragma unroll
            for (int k8 = 0; k8 < kSteps; ++k8)
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const float x = __uint_as_float(raw[k8][i]);
                    nonfinite[i % 2] |= !isfinite(x);
                    const gemm::Tf32Split parts = gemm::split_tf32(x);
                    big[kSet][k8][i] = parts.big;
                    small[kSet][k8][i] = parts.small;
                }
            if (nonfinite[0]) a_row_flags[fragment_row] = 1;
            if (nonfinite[1]) a_row_flags[fragment_row + 8] = 1;
        };
        const auto release = [&](int stage) {  // a stage whose MMAs retired, back to the producer
            if (stage >= 0 && lane == 0) gemm::mbarrier_arrive(gemm::smem_addr(&st.empty[stage]));
        };
        int retiring = -1;  // the stage whose MMAs the next wait retires
        // K tile kt, its fragments already in raw: split into set kSet and its 3 x 4 MMAs issued, then the next
        // tile's fragments loaded while they run. kFirst: the tile opens a promotion chunk (its first MMA overwrites the
        // accumulators). kPromote: it closes one, so every MMA is retired and the accumulators added into the total;
        // otherwise the previous tile's MMAs are. Both are compile-time: a wgmma wait on a run-time branch makes
        // ptxas serialise every wgmma (C7518).
        const auto step = [&](auto set, auto first, auto promote, int kt) {
            constexpr int kSet = decltype(set)::value;
            split_fragments(set);
            const uint32_t b_big = gemm::smem_addr(st.b_big[r.stage]), b_small = gemm::smem_addr(st.b_small[r.stage]);
            gemm::wgmma_hold(acc);
            gemm::wgmma_fence();
#pragma unroll
            for (int k8 = 0; k8 < kSteps; ++k8) {  // 8 floats = 32 bytes further along the swizzled rows
                const uint64_t big_desc = gemm::sw128_k_major_descriptor(b_big + 32 * k8);
                const uint64_t small_desc = gemm::sw128_k_major_descriptor(b_small + 32 * k8);
                gemm::wgmma_m64n128k8_tf32(acc, small[kSet][k8], big_desc, !decltype(first)::value || k8 > 0);
                gemm::wgmma_m64n128k8_tf32(acc, big[kSet][k8], small_desc, true);
                gemm::wgmma_m64n128k8_tf32(acc, big[kSet][k8], big_desc, true);
            }
            gemm::wgmma_commit();
            Ring next = r;
            next.advance();
            if (kt + 1 < w.ktiles) load_fragments(next);
            if constexpr (decltype(promote)::value) {
                gemm::wgmma_wait<0>();
                gemm::wgmma_hold(acc);
                gemm::wgmma_hold(big[kSet]);
                gemm::wgmma_hold(small[kSet]);
#pragma unroll
                for (int i = 0; i < kAccumulators; ++i) total[i] += acc[i];
                release(retiring);
                release(r.stage);
                retiring = -1;
            } else {
                gemm::wgmma_wait<1>();
                gemm::wgmma_hold(big[(kSet + 1) % kSets]);
                gemm::wgmma_hold(small[(kSet + 1) % kSets]);
                release(retiring);
                retiring = r.stage;
            }
            r = next;
        };
        if (w.ktiles > 0) load_fragments(r);
        int kt = 0;
        for (; kt + kUnroll <= w.ktiles; kt += kUnroll)
            gemm::static_for<0, kUnroll>([&](auto i) {
                constexpr int kI = decltype(i)::value;
                step(std::integral_constant<int, kI % kSets>{}, std::bool_constant<kI % kPromoteKTiles == 0>{},
                     std::bool_constant<kI % kPromoteKTiles == kPromoteKTiles - 1>{}, kt + kI);
            });
        // The K tiles short of a whole pass, each a promotion chunk of its own (so each may use set 0).
        for (; kt < w.ktiles; ++kt) step(std::integral_constant<int, 0>{}, std::true_type{}, std::true_type{}, kt);

        float* const C = out.base + int64_t(w.slice) * out.slice_stride;
        const int row = w.m0 + 64 * consumer_index + 16 * warp + lane / 4, col = w.n0 + 2 * (lane % 4);
#pragma unroll
        for (int j = 0; j < kBN / 8; ++j) {
            gemm::store_pair<kAligned>(C, out.ld, s.M, s.N, row, col + 8 * j, total[4 * j], total[4 * j + 1]);
            gemm::store_pair<kAligned>(C, out.ld, s.M, s.N, row + 8, col + 8 * j, total[4 * j + 2], total[4 * j + 3]);
        }
    }
}

template <bool kAligned>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_3xtf32_kernel(const __grid_constant__ Maps maps, gemm::SliceOutput out, gemm::PersistentSchedule s,
                        int* a_row_flags) {
    extern __shared__ uint8_t smem_raw[];
    Storage& st = *reinterpret_cast<Storage*>(
        smem_raw + (kSwizzleAtomBytes - gemm::smem_addr(smem_raw) % kSwizzleAtomBytes) % kSwizzleAtomBytes);
    if (threadIdx.x == 0) {
        for (int i = 0; i < kStages; ++i) {
            gemm::mbarrier_init(gemm::smem_addr(&st.full[i]), 1);
            gemm::mbarrier_init(gemm::smem_addr(&st.empty[i]), 4 * kConsumers);
        }
        gemm::mbarrier_init_fence();
        gemm::prefetch_tensor_map(&maps.a);
        gemm::prefetch_tensor_map(&maps.b_big);
        gemm::prefetch_tensor_map(&maps.b_small);
    }
    __syncthreads();
    if (threadIdx.x < 128) {  // the producer warpgroup
        gemm::warpgroup_release_registers<kProducerRegisters>();
        if (threadIdx.x == 0) producer(&maps, st, s);
    } else {
        gemm::warpgroup_claim_registers<kConsumerRegisters>();
        consumer<kAligned>(st, s, out, a_row_flags, int(threadIdx.x) / 128 - 1);
    }
}

template <bool kAligned>
mm_status launch_kernel(const GemmArgs& g, const float* b_small, int* a_row_flags, const gemm::PersistentSchedule& s,
                        int blocks, gemm::SliceOutput out, cudaStream_t stream) {
    constexpr auto kernel = &wgmma_3xtf32_kernel<kAligned>;
    Maps maps;
    MM_TRY(gemm::prepare_bulk_copy_launch<kernel>(kSmemBytes, g, gemm::BlockShape{kBM, kBN, kBK}, &maps.a,
                                                  &maps.b_big));
    GemmArgs small = g;
    small.B = b_small;
    CUtensorMap unused_a;
    MM_TRY(gemm::encode_operand_maps(small, kBM, kBN, kBK, &unused_a, &maps.b_small));
    kernel<<<blocks, kThreads, kSmemBytes, stream>>>(maps, out, s, a_row_flags);
    return mm_check_launch("wgmma_3xtf32");
}

// The kernel over K slices (a gemm::SliceLauncher): g.B is B's big part, N x K, its small part follows it in the
// same allocation, and the flags of A's rows (M ints) follow that.
mm_status launch_slices(const GemmArgs& g, int /*splits*/, int ktiles_per_split, gemm::SliceOutput out,
                        cudaStream_t stream) {
    return gemm::launch_persistent(g, gemm::BlockShape{kBM, kBN, kBK}, ktiles_per_split, out,
                                   [&](auto aligned, const gemm::PersistentSchedule& s, int blocks) {
                                       const float* const b_small = g.B + int64_t(g.N) * g.ldb;
                                       int* const a_row_flags = const_cast<int*>(
                                           reinterpret_cast<const int*>(b_small + int64_t(g.N) * g.ldb));
                                       return launch_kernel<decltype(aligned)::value>(g, b_small, a_row_flags, s,
                                                                                      blocks, out, stream);
                                   });
}

constexpr auto kRowMajorKernel = &wgmma_3xtf32_kernel<false>;

}  // namespace

mm_status requires_wgmma_3xtf32() {
    return gemm::require_bulk_copy(gemm::machine_code_of<kRowMajorKernel>(), "wgmma_3xtf32");
}

mm_status launch_wgmma_3xtf32(const GemmArgs& g, cudaStream_t stream) {
    DeviceBuffer a_rows(stream, DeviceBuffer::Pool::kWorkspace), b_parts(stream, DeviceBuffer::Pool::kWorkspace);
    GemmArgs k = g;  // A as M x K and B's two parts as N x K, all with K along their rows
    const bool b_t = g.op_b == MM_OP_T;
    MM_TRY(gemm::k_major_a(g, a_rows, &k, stream));  // its split happens in registers
    // One allocation: B big, B small (N x K each), then the non-finite flags of A's rows (M) and of B's columns (N).
    k.ldb = padded_ld(g.K);
    const size_t part = size_t(g.N) * size_t(k.ldb), flags = size_t(g.M) + size_t(g.N);
    MM_TRY(b_parts.allocate(2 * sizeof(float) * part + sizeof(int) * flags, "the split K-major copies of B"));
    float* const big = b_parts.data();
    int* const a_row_flags = reinterpret_cast<int*>(big + 2 * part);
    int* const b_column_flags = a_row_flags + g.M;
    MM_TRY(mm_check_cuda(cudaMemsetAsync(a_row_flags, 0, sizeof(int) * flags, stream), "cudaMemsetAsync"));
    MM_TRY(gemm::launch_tf32_split_gather(g.B, g.N, g.K, b_t ? g.ldb : 1, b_t ? 1 : g.ldb, big, big + part,
                                          b_column_flags, k.ldb, stream));
    k.B = big;
    k.op_a = MM_OP_N;
    k.op_b = MM_OP_T;
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int64_t tiles = tiles_of(g.M, kBM) * tiles_of(g.N, kBN);
    MM_TRY(gemm::run_split_k(k, gemm::choose_splits(tiles, g.K, sms, 1), kBK, &launch_slices, stream));
    return gemm::launch_nonfinite_fixup(g, a_row_flags, b_column_flags, stream);
}
