// Copies one K tile of A and B from global into shared memory with cp.async, in the layouts the FFMA warp tile
// reads (A K-major, B row-major): the copy stage of the cp.async mainloop (device).
//
// Transposing A with cp.async: cp.async cannot transpose a 16-byte vector, but a 4-byte cp.async can write one
// float anywhere, so A is copied element-wise straight into the K-major layout. The alternative, A row-major in
// shared memory, makes the micro-kernel read a thread's 4 rows at one k as 4 scalars (4x the LDS count for A) or
// read 4 k's per row, which conflicts (a row stride that is a multiple of 16 floats puts all 8 rows of a fragment
// read on 2 bank groups) unless swizzled. Element-wise copies cost instructions only on the copy side: BM*BK /
// threads 4-byte copies per thread per K tile against 16*TM*TN FMAs, under 1% more issue slots. The map: lane l
// of warp w copies A[row 4w + l/8 + r*threads/8][k 8q + l%8], so a warp reads 4 rows x 32 contiguous bytes
// (full sectors) and writes a_s[k][row] at k*(BM+4) + row: banks 4*(l%8) + l/8 (mod 32) for BM % 32 == 0, all
// distinct. Elements outside A (rows >= M, k >= K) are zero-filled through the src-size operand, which also
// makes unaligned A need no separate path.
//
// B is copied in 16-byte chunks when kAligned (a chunk not fully inside B falls back to 4-byte zero-filling
// copies); unaligned B uses a second, element-wise map in which lane l copies column l of a row, so the 4-byte
// copies stay coalesced and their shared stores conflict-free (a chunk map would have 4 copies per thread
// hitting banks 4 apart: 4-way conflicts).
#pragma once

#include "core/config.h"
#include "core/copy/cp_async.cuh"
#include "core/problem.h"

namespace gemm {

template <FfmaTile kTile, bool kAligned>
class CpAsyncTileCopy {
  public:
    static constexpr int BM = kTile.block.m, BN = kTile.block.n, BK = kTile.block.k, kStages = kTile.stages;
    static constexpr int kThreads = kTile.threads();
    static constexpr int SA = BM + 4;  // a_s row stride (K-major): see the A map above
    static constexpr int SB = BN;      // b_s rows are written and read whole: no padding needed
    static constexpr int kAStage = BK * SA, kBStage = BK * SB;  // floats per stage

    // The ring: [kStages][BK][SA] floats of A, then [kStages][BK][SB] of B.
    struct Storage {
        float a[kStages * kAStage];
        float b[kStages * kBStage];
    };

    // A map: thread t copies k = 8q + t%8 of rows t/8 + r*kARowStep, q < kAKGroups, r < kARowPasses.
    static constexpr int kARowStep = kThreads / 8;
    static constexpr int kARowPasses = BM / kARowStep;
    static constexpr int kAKGroups = BK / 8;
    // B map: thread t copies the 4 columns 4*(t % kBChunks) of rows t/kBChunks + p*kBRowStep.
    static constexpr int kBChunks = BN / 4;
    static constexpr int kBRowStep = kThreads / kBChunks;
    static constexpr int kBPasses = BK / kBRowStep;
    // Unaligned-B map (4-byte copies): thread t copies column t % BN of rows t/BN + p*kUBRowStep.
    static constexpr int kUBRowStep = kThreads / BN;
    static constexpr int kUBPasses = BK / (kUBRowStep > 0 ? kUBRowStep : 1);

    static constexpr bool valid() {
        return (BM & (BM - 1)) == 0 && (BN & (BN - 1)) == 0 && (BK & (BK - 1)) == 0 &&  // no overflow at INT32_MAX
               BK % 8 == 0 && BM % 32 == 0 && BM % kARowStep == 0 &&  // A map: 4 rows x 8 k per warp pass
               kThreads % kBChunks == 0 && BK % kBRowStep == 0 && BN % 4 == 0 &&
               kThreads % BN == 0 && BK % kUBRowStep == 0 &&  // unaligned-B map
               SA % 4 == 0 && SA % 32 == 4 && (kStages * BK * SA * int(sizeof(float))) % 16 == 0;
    }

    // The copy maps of thread `tid` for the block tile at (m0, n0), 64-bit bases computed once.
    __device__ CpAsyncTileCopy(Storage& smem, const GemmArgs& g, int m0, int n0, int tid)
        : g_(g),
          a_kk_(tid % 8),
          a_r_(tid / 8),
          a_src_(g.A + (int64_t(m0) + a_r_) * g.lda + a_kk_),
          a_pass_(int64_t(kARowStep) * g.lda),
          a_dst_(smem_addr(smem.a + a_kk_ * SA + a_r_)),
          b_src_(g.B + n0 + 4 * (tid % kBChunks) + int64_t(tid / kBChunks) * g.ldb),
          b_r_(tid / kBChunks),
          b_pass_(int64_t(kBRowStep) * g.ldb),
          b_dst_(smem_addr(smem.b + b_r_ * SB + 4 * (tid % kBChunks))),
          b_cols_(g.N - n0 - 4 * (tid % kBChunks)),
          ub_c_(tid % BN),
          ub_r_(tid / BN),
          ub_src_(g.B + n0 + ub_c_ + int64_t(ub_r_) * g.ldb),
          ub_pass_(int64_t(kUBRowStep) * g.ldb),
          ub_dst_(smem_addr(smem.b + ub_r_ * SB + ub_c_)),
          m_rem_(g.M - m0),
          n_rem_(g.N - n0),
          a_full_(m_rem_ >= BM),
          b_full_(n_rem_ >= BN) {}

    // Issues the copies of K tile kt into ring stage `stage` (not committed).
    __device__ void load(int kt, int stage) const {
        const int k0 = kt * BK, k_rem = g_.K - k0;
        const bool k_full = k_rem >= BK;
        const uint32_t a_st = a_dst_ + stage * (kAStage * 4);
        const uint32_t b_st = b_dst_ + stage * (kBStage * 4);
        const float* const a_k = a_src_ + k0;
        const float* const b_k = b_src_ + int64_t(k0) * g_.ldb;
        if (a_full_ && k_full) {
#pragma unroll
            for (int q = 0; q < kAKGroups; ++q)
#pragma unroll
                for (int r = 0; r < kARowPasses; ++r)
                    cp_async4(a_st + 4 * (8 * q * SA + r * kARowStep), a_k + r * a_pass_ + 8 * q);
        } else {
#pragma unroll
            for (int q = 0; q < kAKGroups; ++q)
#pragma unroll
                for (int r = 0; r < kARowPasses; ++r) {
                    const bool ok = a_r_ + r * kARowStep < m_rem_ && 8 * q + a_kk_ < k_rem;
                    cp_async4_zfill(a_st + 4 * (8 * q * SA + r * kARowStep), ok ? a_k + r * a_pass_ + 8 * q : g_.A, ok);
                }
        }
        if constexpr (kAligned) {
            if (b_full_ && k_full) {
#pragma unroll
                for (int p = 0; p < kBPasses; ++p) cp_async16(b_st + 4 * (p * kBRowStep * SB), b_k + p * b_pass_);
            } else {
#pragma unroll
                for (int p = 0; p < kBPasses; ++p) {
                    const uint32_t dst = b_st + 4 * (p * kBRowStep * SB);
                    const float* const src = b_k + p * b_pass_;
                    const bool row_ok = b_r_ + p * kBRowStep < k_rem;
                    if (row_ok && b_cols_ >= 4) {
                        cp_async16(dst, src);
                    } else {
#pragma unroll
                        for (int j = 0; j < 4; ++j) {
                            const bool ok = row_ok && j < b_cols_;
                            cp_async4_zfill(dst + 4 * j, ok ? src + j : g_.B, ok);
                        }
                    }
                }
            }
        } else {
            const uint32_t ub_st = ub_dst_ + stage * (kBStage * 4);
            const float* const ub_k = ub_src_ + int64_t(k0) * g_.ldb;
            if (b_full_ && k_full) {
#pragma unroll
                for (int p = 0; p < kUBPasses; ++p) cp_async4(ub_st + 4 * (p * kUBRowStep * SB), ub_k + p * ub_pass_);
            } else {
                const bool column_inside = ub_c_ < n_rem_;
#pragma unroll
                for (int p = 0; p < kUBPasses; ++p) {
                    const bool ok = ub_r_ + p * kUBRowStep < k_rem && column_inside;
                    cp_async4_zfill(ub_st + 4 * (p * kUBRowStep * SB), ok ? ub_k + p * ub_pass_ : g_.B, ok);
                }
            }
        }
    }

  private:
    const GemmArgs& g_;
    const int a_kk_, a_r_;
    const float* const a_src_;
    const int64_t a_pass_;
    const uint32_t a_dst_;
    const float* const b_src_;
    const int b_r_;
    const int64_t b_pass_;
    const uint32_t b_dst_;
    const int b_cols_;
    const int ub_c_, ub_r_;
    const float* const ub_src_;
    const int64_t ub_pass_;
    const uint32_t ub_dst_;
    const int m_rem_, n_rem_;
    const bool a_full_, b_full_;
};

}  // namespace gemm
