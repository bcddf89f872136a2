// best_tf32 and best_fp32_accurate: the fastest kernel for an accuracy, per shape; dispatchers beside best.
//
// Technique: no new kernel. Each class has a tensor-core kernel and best, whose IEEE fp32 FMAs are at least as
// accurate as the class asks (more accurate than TF32, and fp32 itself for the fp32-accurate class):
// - best_tf32 (TF32 class): longk_tf32 for a long K over a C of a few of its tiles, else wgmma_tf32, or best;
// - best_fp32_accurate (fp32 accuracy, by any arithmetic): wgmma_3xtf32 (wgmma_3xtf32_register_split where C has a
//   small side, ozaki_int8 for the largest products), pairwise, or best.
// Two features decide. The product's arithmetic intensity, 2MNK FLOPs over the 4(MK + KN + MN) bytes that it must
// move at least: below the GPU's FP32 balance a product is bound by memory, and best's streaming kernels read the
// operands once at HBM speed, which the tensor-core kernels' large tiles do not; far above it, the tensor cores'
// rate wins. And the intensity of the operands alone, 2MNK over 4(MK + KN): the tensor-core kernels first prepare
// their operands in passes over memory (rounded or split copies), whose bytes grow with (M + N)K, and where C has a
// short side those passes and the few tiles that C fills cost more than best's FMAs save. The crossings depend on
// tiles per wave and K per tile, so they are measured rather than derived: the tuner (`python -m matmul_opt.tune`)
// times each tensor-core kernel and its class's choice off the tensor cores (best_fp32_accurate forced there through
// by_precision::force_fp32_ffma) on shapes generated from the features and writes, per tensor-core kernel, the pair
// of thresholds from which it is used (precision_table.h).
// The fp32-accurate class has a second bound: 3xTF32 drops the small x small term of its split, which shows in sums
// of few terms, so it is used from the K at which the tuner measured its error within the accuracy contract
// (matmul_opt.accuracy.FP32_ACCURATE_CONTRACT) at every larger K swept; below it, best.
// And a third: best's FMAs sum each output in long in-order chains, and where C is too small to fill the GPU cuBLAS
// fp32's errors are those of shallow K slices, smaller than best's. There (a C of at most
// kShortChainsMaxMnPerSm outputs per SM and no short side, over a K longer than one run of pairwise's order and
// shorter than best's long-K rule, which spreads K over every SM in short slices of its own) the class runs
// pairwise, whose sums are chains of a few additions. A C with a short side that best streams (the skinny kernel,
// whose sums are folded) stays with best. A panel that best runs on tiles sums K in a chain per K slice, and cuBLAS
// cuts such panels into more slices than best's split-K rule does, so that best's error passes cuBLAS's
// (docs/experiments/2026-12-05-panel-fold.md): there (a panel of at most kPanelChainsMaxMnPerSm outputs per
// SM, over a K past one fold of pairwise's panel order and short of best's long-K rule) the class runs pairwise,
// which gives a panel best's panel tiles and folds each output's sum every 64 k.
// The TF32 class first asks whether best's long-K rule takes the product (a long K over a small C) and C has at
// most kLongkTf32MaxOutputs outputs: there longk_tf32 reads both operands once as stored on the tensor cores, faster
// than best's FMAs and than wgmma_tf32, whose 128-row tiles and passes over an operand cost most on such a C; on a
// larger C, wgmma_tf32's tiles win (docs/experiments/2026-12-06-shared-ring.md). A smaller side of C that best
// leaves to the skinny kernel stays with best.
// Among the fp32-accurate tensor-core kernels, the operands' intensity and K decide first: wgmma_3xtf32 does three
// TF32 products and holds the GPU at its power limit within milliseconds, where its clock falls; ozaki_int8 does seven
// or eight INT8 products, which cost less energy per useful bit, and passes over memory: over its operands, (M + N)K,
// and the rebuild of C from its residues, 8MN, which only a long K makes small beside the products' MNK, and each of
// its tiles pays a fixed cost per modulus, which only a long K spreads. From kOzakiMinOperandFlopsPerByte (2MNK over
// 4(MK + KN): both sides of C large, so that the operands' passes are small beside the product; a panel does not
// reach it) and kOzakiMinK (both tuned: the ozaki sweep times the two kernels at the power limit) ozaki_int8 wins.
// Its error kept the class's contract at K up to 2^20
// on all but one of the products docs/experiments/2026-12-03-ozaki-norms.md measured (the exception: a single
// output of a sum of 10^6 spread values), all of them smaller than those it takes here.
// Among the 3xTF32 kernels, C's smaller side decides: up to kRegisterSplitMaxSide (tuned: the bound on the side whose
// choices lost the least time over the sweep), wgmma_3xtf32_register_split, which splits the larger operand in
// registers as it lies and passes over the smaller one alone, in tiles fitted to that side; past it wgmma_3xtf32,
// whose square tiles and passes over both operands pay where neither operand dominates. Not where best's long-K rule
// takes the product (a long K over a small C, which best spreads over every SM with kernels fitted to C): there a
// tile of 128 rows is mostly padding, and the class chooses between wgmma_3xtf32 and the FMAs. Each 3xTF32 kernel
// has its own pair of intensity thresholds, fitted on the sweep's shapes that it would take: the register split's
// pass over the smaller operand alone costs far less than wgmma_3xtf32's over both, so it wins against the FMAs at
// lower intensities. So the class first picks the tensor-core kernel the shape would take, then asks whether the
// shape reaches that kernel's thresholds.
// Where wgmma cannot run (no Hopper GPU, or no sm_90a machine code), best runs every product.
//
// Changes vs best: none in the kernels; the launchers compute the two intensities (and, for fp32 accuracy, the
// outputs per SM) and call the chosen kernel's launcher.
#include "kernels/by_precision.h"

#include <atomic>

#include "core/device.h"
#include "core/problem.h"
#include "kernels/best.h"
#include "kernels/best_table.h"
#include "kernels/precision_table.h"

mm_status launch_best(const GemmArgs& g, cudaStream_t stream);
mm_status launch_longk_tf32(const GemmArgs& g, cudaStream_t stream);
mm_status launch_pairwise(const GemmArgs& g, cudaStream_t stream);
mm_status launch_wgmma_tf32(const GemmArgs& g, cudaStream_t stream);
mm_status launch_wgmma_3xtf32(const GemmArgs& g, cudaStream_t stream);
mm_status launch_ozaki_int8(const GemmArgs& g, cudaStream_t stream);
mm_status launch_wgmma_3xtf32_register_split(const GemmArgs& g, cudaStream_t stream);
mm_status requires_ampere();
mm_status requires_wgmma();
mm_status requires_wgmma_3xtf32();
mm_status requires_ozaki_int8();
mm_status requires_wgmma_3xtf32_register_split();

namespace {

// The thresholds of a tensor-core kernel: its class runs it where g reaches all three.
struct Thresholds {
    double min_flops_per_byte;          // 2MNK over 4(MK + KN + MN)
    double min_operand_flops_per_byte;  // 2MNK over 4(MK + KN)
    double min_k;                       // K, at least (INFINITY: never)
};

bool reaches(const GemmArgs& g, const Thresholds& t) {
    const double m = g.M, n = g.N, k = g.K;
    const double flops = 2.0 * m * n * k;
    return g.K >= t.min_k && flops >= t.min_flops_per_byte * 4.0 * (m * k + k * n + m * n) &&
           flops >= t.min_operand_flops_per_byte * 4.0 * (m * k + k * n);
}

using Launcher = mm_status (*)(const GemmArgs&, cudaStream_t);

// The tensor-core launcher where it can run and g reaches its thresholds; else `otherwise`.
mm_status launch_by_intensity(Launcher tensor, mm_status (*requirement)(), const Thresholds& t, Launcher otherwise,
                              const GemmArgs& g, cudaStream_t stream) {
    if (reaches(g, t) && requirement() == MM_OK) return tensor(g, stream);
    return otherwise(g, stream);
}

std::atomic<bool> fp32_ffma_forced{false};  // by_precision::force_fp32_ffma

// Whether best_tf32 runs longk_tf32: a long K over a C that best's long-K rule takes, whose smaller side is past
// what best leaves to the skinny kernel, of at most kLongkTf32MaxOutputs outputs (precision_table.h).
bool takes_longk_tf32(const GemmArgs& g, int sms) {
    return best::takes_long_k(g, sms) && (g.M < g.N ? g.M : g.N) > best_table::kLongkMinSmallSide &&
           int64_t(g.M) * g.N <= precision_table::kLongkTf32MaxOutputs;
}

// Where best's in-order chains lose accuracy against cuBLAS fp32's shallow K slices: C of at most this many outputs
// per SM and no short side (has_short_side, best's test for a panel), and K from one run of pairwise's order
// (up to which every order is one chain of FMAs) to best's long-K rule.
constexpr int64_t kShortChainsMaxMnPerSm = 2048;
constexpr int kShortChainsMinK = 5;

// Where best's panels lose accuracy against cuBLAS fp32's finer K slices: up to the next power of two past the
// outputs per SM of the largest panel measured past the contract (the panels measured past that bound keep it under
// best, where cuBLAS too sums K in one chain; docs/experiments/2026-12-05-panel-fold.md), and from a K longer than
// one fold of pairwise's panel order (up to which its order and a loop's are one chain).
constexpr int64_t kPanelChainsMaxMnPerSm = 65536;
constexpr int kPanelChainsMinK = 65;

// best, or pairwise where g is one of the products above.
mm_status launch_fp32_ffma(const GemmArgs& g, cudaStream_t stream) {
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const int64_t outputs = int64_t(g.M) * g.N;
    const bool below_long_k = g.K < best_table::kLongKMin;
    if (!has_short_side(g.M, g.N)) {
        const bool small_c = outputs <= kShortChainsMaxMnPerSm * sms;
        if (small_c && g.K >= kShortChainsMinK && below_long_k) return launch_pairwise(g, stream);
    } else if (outputs <= kPanelChainsMaxMnPerSm * sms && g.K >= kPanelChainsMinK && below_long_k &&
               !best::streams_small_side(g, sms)) {
        return launch_pairwise(g, stream);
    }
    return launch_best(g, stream);
}

// A tensor-core kernel of the fp32-accurate class and the thresholds from which the class runs it.
struct TensorChoice {
    Launcher launch;
    mm_status (*requirement)();
    Thresholds from;
};

// The fp32-accurate tensor-core kernel that g's shape would take: ozaki_int8 where both sides of C are large and K is
// long; else wgmma_3xtf32_register_split where C's smaller side is at most kRegisterSplitMaxSide, K reaches
// kRegisterSplitMinK and best's long-K rule does not take g; else wgmma_3xtf32. (All three are sm_90a code of one build
// and need the same GPU, so where one cannot run none can.)
TensorChoice fp32_accurate_tensor(const GemmArgs& g, int sms) {
    constexpr Thresholds kSplitBoth{precision_table::kFp32AccurateMinFlopsPerByte,
                                    precision_table::kFp32AccurateMinOperandFlopsPerByte,
                                    precision_table::kFp32AccurateMinK};
    constexpr Thresholds kRegisterSplit{
        precision_table::kRegisterSplitMinFlopsPerByte, precision_table::kRegisterSplitMinOperandFlopsPerByte,
        double(precision_table::kRegisterSplitMinK > precision_table::kFp32AccurateMinK
                   ? precision_table::kRegisterSplitMinK
                   : precision_table::kFp32AccurateMinK)};
    if (reaches(g, {0.0, precision_table::kOzakiMinOperandFlopsPerByte, precision_table::kOzakiMinK}))
        return {launch_ozaki_int8, requires_ozaki_int8, kSplitBoth};
    const int smaller_side = g.M < g.N ? g.M : g.N;
    if (smaller_side <= precision_table::kRegisterSplitMaxSide && g.K >= precision_table::kRegisterSplitMinK &&
        !best::takes_long_k(g, sms))
        return {launch_wgmma_3xtf32_register_split, requires_wgmma_3xtf32_register_split, kRegisterSplit};
    return {launch_wgmma_3xtf32, requires_wgmma_3xtf32, kSplitBoth};
}

}  // namespace

void by_precision::force_fp32_ffma(bool on) { fp32_ffma_forced.store(on, std::memory_order_relaxed); }

mm_status launch_best_tf32(const GemmArgs& g, cudaStream_t stream) {
    constexpr Thresholds kTf32{precision_table::kTf32MinFlopsPerByte, precision_table::kTf32MinOperandFlopsPerByte, 1};
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    if (takes_longk_tf32(g, sms) && requires_ampere() == MM_OK) return launch_longk_tf32(g, stream);
    return launch_by_intensity(launch_wgmma_tf32, requires_wgmma, kTf32, launch_best, g, stream);
}

mm_status launch_best_fp32_accurate(const GemmArgs& g, cudaStream_t stream) {
    if (fp32_ffma_forced.load(std::memory_order_relaxed)) return launch_fp32_ffma(g, stream);
    int sms = 0;
    MM_TRY(gemm::sm_count(&sms));
    const TensorChoice tensor = fp32_accurate_tensor(g, sms);
    return launch_by_intensity(tensor.launch, tensor.requirement, tensor.from, launch_fp32_ffma, g, stream);
}
