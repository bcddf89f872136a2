// Copies one K tile of A and B from global into shared memory with cp.async, in the layout the FFMA warp tile
// reads (both operands K-major: a_s[k][m], b_s[k][n]): the copy stage of the cp.async mainloop (device).
//
// Each operand is copied by one of two maps, chosen at compile time by how it is stored. An operand stored with
// K along its rows (A for op_a = MM_OP_T, B for op_b = MM_OP_N) is copied row by row (CpAsyncRowCopy); one
// stored with K across its rows (A for MM_OP_N, B for MM_OP_T) is transposed on the way (CpAsyncTransposingCopy).
//
// Transposing with cp.async: cp.async cannot transpose a 16-byte vector, but a 4-byte cp.async can write one
// float anywhere, so the operand is copied element-wise straight into the K-major layout. The alternative, the
// operand as stored in shared memory, makes the micro-kernel read a thread's 4 rows at one k as 4 scalars (4x the
// LDS count) or read 4 k's per row, which conflicts (a row stride that is a multiple of 16 floats puts all 8 rows
// of a fragment read on 2 bank groups) unless swizzled. Element-wise copies cost instructions only on the copy
// side: R*BK / threads 4-byte copies per thread per K tile against 16*TM*TN FMAs, under 1% more issue slots. The
// map: lane l of warp w copies X[row 4w + l/8 + r*threads/8][k 8q + l%8], so a warp reads 4 rows x 32 contiguous
// bytes (full sectors) and writes x_s[k][row] at k*(R+4) + row: banks 4*(l%8) + l/8 (mod 32) for R % 32 == 0, all
// distinct. Elements outside the matrix (rows past its extent, k >= K) are zero-filled through the src-size
// operand, which also makes an unaligned operand need no separate path.
//
// Row copies go in 16-byte chunks when kAligned (a chunk not fully inside the matrix falls back to 4-byte
// zero-filling copies); unaligned, a second, element-wise map has lane l copy column l of a row, so the 4-byte
// copies stay coalesced and their shared stores conflict-free (a chunk map would have 4 copies per thread
// hitting banks 4 apart: 4-way conflicts).
#pragma once

#include <type_traits>

#include "core/config.h"
#include "core/copy/cp_async.cuh"
#include "core/problem.h"

namespace gemm {

// The rows of an operand's R-row tile that lie inside op(X) (rows past the tile's first, >= 1), and whether that
// is the whole tile.
template <int R>
struct TileRows {
    __device__ explicit TileRows(int rows_left) : left(rows_left), full(rows_left >= R) {}
    const int left;
    const bool full;
};

// Operand (OperandA or OperandB) stored with K across its rows, into R x BK tiles x_s[k][r] (row stride S).
template <class Operand, int R, int BK, int kThreads>
class CpAsyncTransposingCopy {
  public:
    static constexpr int S = R + 4;  // see the map above
    static constexpr int kStage = BK * S;
    // Thread t copies k = 8q + t%8 of rows t/8 + r*kRowStep, q < kKGroups, r < kRowPasses.
    static constexpr int kRowStep = kThreads / 8;
    static constexpr int kRowPasses = R / kRowStep;
    static constexpr int kKGroups = BK / 8;

    static constexpr bool valid() {
        return BK % 8 == 0 && R % 32 == 0 && R % kRowStep == 0 &&  // 4 rows x 8 k per warp pass
               S % 4 == 0 && S % 32 == 4;
    }

    // Thread tid's map for the tile whose first row is r0, writing into the ring at `smem`.
    __device__ CpAsyncTransposingCopy(float* smem, const GemmMatrices& g, int r0, int tid)
        : kk_(tid % 8),
          r_(tid / 8),
          src_(Operand::matrix(g) + (int64_t(r0) + r_) * Operand::ld(g) + kk_),
          pass_(int64_t(kRowStep) * Operand::ld(g)),
          dst_(smem_addr(smem + kk_ * S + r_)),
          rows_(Operand::extent(g) - r0) {}

    // Where this thread's copies of a K tile go in ring stage `stage`, and where those of the tile from k0 come from.
    __device__ uint32_t stage_address(int stage) const { return dst_ + stage * (kStage * 4); }
    __device__ const float* source(const GemmMatrices&, int k0) const { return src_ + k0; }

    // Issues the copies of the K tile from k0 into `stage` (st and k_src from the two above; k_rem = K - k0 > 0
    // left; k_full: k_rem >= BK).
    __device__ void issue(const GemmMatrices& g, uint32_t st, const float* k_src, int /*k0*/, int /*stage*/, int k_rem,
                          bool k_full) const {
        if (rows_.full && k_full) {
#pragma unroll
            for (int q = 0; q < kKGroups; ++q)
#pragma unroll
                for (int r = 0; r < kRowPasses; ++r) cp_async4(st + 4 * (8 * q * S + r * kRowStep), k_src + r * pass_ + 8 * q);
        } else {
#pragma unroll
            for (int q = 0; q < kKGroups; ++q)
#pragma unroll
                for (int r = 0; r < kRowPasses; ++r) {
                    const bool ok = r_ + r * kRowStep < rows_.left && 8 * q + kk_ < k_rem;
                    cp_async4_zfill(st + 4 * (8 * q * S + r * kRowStep), ok ? k_src + r * pass_ + 8 * q : Operand::matrix(g),
                                    ok);
                }
        }
    }

  private:
    const int kk_, r_;
    const float* const src_;
    const int64_t pass_;
    const uint32_t dst_;
    const TileRows<R> rows_;
};

// Operand stored with K along its rows, into R x BK tiles x_s[k][r] (row stride S = R: rows are written and read
// whole, so no padding is needed); kAligned: the operand's rows may be read as float4.
template <class Operand, int R, int BK, int kThreads, bool kAligned>
class CpAsyncRowCopy {
  public:
    static constexpr int S = R;
    static constexpr int kStage = BK * S;
    // Thread t copies the 4 columns 4*(t % kChunks) of rows t/kChunks + p*kRowStep.
    static constexpr int kChunks = R / 4;
    static constexpr int kRowStep = kThreads / kChunks;
    static constexpr int kPasses = BK / kRowStep;
    // Unaligned map (4-byte copies): thread t copies column t % R of rows t/R + p*kURowStep.
    static constexpr int kURowStep = kThreads / R;
    static constexpr int kUPasses = BK / (kURowStep > 0 ? kURowStep : 1);

    static constexpr bool valid() {
        return kThreads % kChunks == 0 && BK % kRowStep == 0 && R % 4 == 0 &&
               kThreads % R == 0 && BK % kURowStep == 0;  // unaligned map
    }

    __device__ CpAsyncRowCopy(float* smem, const GemmMatrices& g, int r0, int tid)
        : src_(Operand::matrix(g) + r0 + 4 * (tid % kChunks) + int64_t(tid / kChunks) * Operand::ld(g)),
          r_(tid / kChunks),
          pass_(int64_t(kRowStep) * Operand::ld(g)),
          dst_(smem_addr(smem + r_ * S + 4 * (tid % kChunks))),
          cols_(Operand::extent(g) - r0 - 4 * (tid % kChunks)),
          uc_(tid % R),
          ur_(tid / R),
          usrc_(Operand::matrix(g) + r0 + uc_ + int64_t(ur_) * Operand::ld(g)),
          upass_(int64_t(kURowStep) * Operand::ld(g)),
          udst_(smem_addr(smem + ur_ * S + uc_)),
          rows_(Operand::extent(g) - r0) {}

    // The aligned map's addresses (the unaligned map computes its own in issue()).
    __device__ uint32_t stage_address(int stage) const { return dst_ + stage * (kStage * 4); }
    __device__ const float* source(const GemmMatrices& g, int k0) const { return src_ + int64_t(k0) * Operand::ld(g); }

    __device__ void issue(const GemmMatrices& g, uint32_t st, const float* k_src, int k0, int stage, int k_rem,
                          bool k_full) const {
        if constexpr (kAligned) {
            if (rows_.full && k_full) {
#pragma unroll
                for (int p = 0; p < kPasses; ++p) cp_async16(st + 4 * (p * kRowStep * S), k_src + p * pass_);
            } else {
#pragma unroll
                for (int p = 0; p < kPasses; ++p) {
                    const uint32_t dst = st + 4 * (p * kRowStep * S);
                    const float* const src = k_src + p * pass_;
                    const bool row_ok = r_ + p * kRowStep < k_rem;
                    if (row_ok && cols_ >= 4) {
                        cp_async16(dst, src);
                    } else {
#pragma unroll
                        for (int j = 0; j < 4; ++j) {
                            const bool ok = row_ok && j < cols_;
                            cp_async4_zfill(dst + 4 * j, ok ? src + j : Operand::matrix(g), ok);
                        }
                    }
                }
            }
        } else {
            const uint32_t ust = udst_ + stage * (kStage * 4);
            const float* const uk_src = usrc_ + int64_t(k0) * Operand::ld(g);
            if (rows_.full && k_full) {
#pragma unroll
                for (int p = 0; p < kUPasses; ++p) cp_async4(ust + 4 * (p * kURowStep * S), uk_src + p * upass_);
            } else {
                const bool column_inside = uc_ < rows_.left;
#pragma unroll
                for (int p = 0; p < kUPasses; ++p) {
                    const bool ok = ur_ + p * kURowStep < k_rem && column_inside;
                    cp_async4_zfill(ust + 4 * (p * kURowStep * S), ok ? uk_src + p * upass_ : Operand::matrix(g), ok);
                }
            }
        }
    }

  private:
    const float* const src_;
    const int r_;
    const int64_t pass_;
    const uint32_t dst_;
    const int cols_;
    const int uc_, ur_;
    const float* const usrc_;
    const int64_t upass_;
    const uint32_t udst_;
    const TileRows<R> rows_;
};

// Both operands of configuration kTile with layouts OpA, OpB (OpN / OpT); kAligned: the operands copied by rows
// may be read, and the output written, as float4 rows.
template <FfmaTile kTile, class OpA, class OpB, bool kAligned>
class CpAsyncTileCopy {
  public:
    static constexpr int BM = kTile.block.m, BN = kTile.block.n, BK = kTile.block.k, kStages = kTile.stages;
    static constexpr int kThreads = kTile.threads();
    using ACopy = std::conditional_t<OpA::kT, CpAsyncRowCopy<OperandA, BM, BK, kThreads, kAligned>,
                                     CpAsyncTransposingCopy<OperandA, BM, BK, kThreads>>;
    using BCopy = std::conditional_t<OpB::kT, CpAsyncTransposingCopy<OperandB, BN, BK, kThreads>,
                                     CpAsyncRowCopy<OperandB, BN, BK, kThreads, kAligned>>;
    static constexpr int SA = ACopy::S, SB = BCopy::S;  // row strides of a_s and b_s, in floats
    static constexpr int kAStage = ACopy::kStage, kBStage = BCopy::kStage;  // floats per stage

    // The ring: [kStages][BK][SA] floats of A, then [kStages][BK][SB] of B.
    struct Storage {
        float a[kStages * kAStage];
        float b[kStages * kBStage];
    };

    static constexpr bool valid() {
        return (BM & (BM - 1)) == 0 && (BN & (BN - 1)) == 0 && (BK & (BK - 1)) == 0 &&  // no overflow at INT32_MAX
               ACopy::valid() && BCopy::valid() && (kStages * BK * SA * int(sizeof(float))) % 16 == 0;
    }

    // The copy maps of thread `tid` for the block tile at (m0, n0), 64-bit bases computed once.
    __device__ CpAsyncTileCopy(Storage& smem, const GemmMatrices& g, int m0, int n0, int tid)
        : g_(g), a_(smem.a, g, m0, tid), b_(smem.b, g, n0, tid) {}

    // Issues the copies of K tile kt into ring stage `stage` (not committed).
    __device__ void load(int kt, int stage) const {
        const int k0 = kt * BK, k_rem = g_.K - k0;
        const bool k_full = k_rem >= BK;
        const uint32_t a_st = a_.stage_address(stage), b_st = b_.stage_address(stage);
        a_.issue(g_, a_st, a_.source(g_, k0), k0, stage, k_rem, k_full);
        b_.issue(g_, b_st, b_.source(g_, k0), k0, stage, k_rem, k_full);
    }

  private:
    const GemmMatrices& g_;
    const ACopy a_;
    const BCopy b_;
};

}  // namespace gemm
