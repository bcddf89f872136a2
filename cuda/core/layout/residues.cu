#include "core/layout/residues.h"

#include <cmath>

#include "core/device.h"
#include "core/launch.h"

namespace gemm {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kGroupK = 4;                 // consecutive elements of C of one rebuild thread (4-byte residue words)
constexpr int kRowGroupK = 16;             // consecutive k of one residue-pass thread along lines stored as rows
constexpr int kColumnGroupK = 4;           // and down lines stored as columns (read from the shared tile)
constexpr int kColumnTileK = 32 * kColumnGroupK;  // k of one block down lines stored as columns
constexpr int kTileLines = 32;             // lines of one block down columns (one per lane), and the most along rows
constexpr int kMostLinesPerWarp = kTileLines / kWarps;
constexpr int kResidueBlocksPerSm = 4;     // at least: the residue pass is bound by latency, so registers go to warps
constexpr int kMaxGridY = 65535;
constexpr int kRebuildBlocks = 4096;  // at most: a grid-stride loop over C's groups covers the rest

// A group of consecutive values of a line, scaled by 2^shift and rounded to integers (at most 2^31 in magnitude).
template <int kWidth>
__device__ __forceinline__ void lift_group(const float (&v)[kWidth], int shift, LiftedInteger (&x)[kWidth]) {
#pragma unroll
    for (int c = 0; c < kWidth; ++c)
        x[c] = lift(uncarried(v[c]) ? 0 : __double2ll_rn(double(v[c]) * power_of_two(shift)));
}

// The group's symmetric residues modulo modulus l, one byte each, packed in k order into one store of kWidth bytes
// (a 4-byte word or a 16-byte vector) at out.
template <int kWidth>
__device__ __forceinline__ void store_residues(const LiftedInteger (&x)[kWidth], int l, const OzakiModuli& moduli,
                                               int8_t* out) {
    static_assert(kWidth == 4 || kWidth == 16, "one word or one vector of words");
    unsigned words[kWidth / 4];
#pragma unroll
    for (int w = 0; w < kWidth / 4; ++w) {
        words[w] = 0;
#pragma unroll
        for (int c = 0; c < 4; ++c) words[w] |= residue_byte(x[4 * w + c], l, moduli) << (8 * c);
    }
    if constexpr (kWidth == 16)
        *reinterpret_cast<uint4*>(out) = make_uint4(words[0], words[1], words[2], words[3]);
    else
        *reinterpret_cast<unsigned*>(out) = words[0];
}

// The residue pass's shared tile of lines stored as columns.
using LinesTile = float[kTileLines][kColumnTileK + kColumnGroupK];  // [line][k]; the pad keeps float4 rows

// A block covers kLinesPerWarp lines per warp x 32 groups of k: each lane a group of consecutive k (kRowGroupK along
// rows, kColumnGroupK down columns), whose residues it stores with one store per modulus into
// each modulus's K-major plane (16 bytes along rows: longer runs of each plane per warp). Lines stored as rows are
// read along k directly; lines stored as columns are read along the lines (coalesced) into a shared tile first,
// whose rows the lanes then read along k. The count of moduli, kCount, is the scaling check's verdict (the kernel
// below reads it and runs this body once for the count it finds, so that the loops over moduli unroll without a
// test per modulus). The grid runs along k first, so that the blocks resident at once cover the k of the same lines:
// each plane is written in runs of whole lines rather than in one block's k of many lines; a block steps over the
// lines by the grid's height.
template <bool kKContiguous, int kLinesPerWarp, int kCount>
__device__ __forceinline__ void cut_residues(const OperandLines& op, int line_bits, const unsigned* max_bits,
                                             int8_t* planes, int64_t kp, const OzakiModuli& moduli, LinesTile& tile) {
    constexpr int kWidth = kKContiguous ? kRowGroupK : kColumnGroupK, kTileK = 32 * kWidth;
    static_assert(kOzakiKAlign % kWidth == 0, "kp is a multiple of a group: a group lies wholly below it or not");
    static_assert(kKContiguous || kLinesPerWarp == kMostLinesPerWarp, "down columns a block takes a lane's line each");
    static_assert(kKContiguous || kWidth == 4, "down columns a lane's group is one float4 of the shared tile");
    constexpr int kBlockLines = kWarps * kLinesPerWarp;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t k0 = blockIdx.x * int64_t(kTileK);
    const int64_t plane = op.lines * kp;
    // Rows on 16 bytes: a lane's group is whole float4s (k is a multiple of the group).
    const bool aligned_groups = reinterpret_cast<uintptr_t>(op.x) % 16 == 0 && op.ld % 4 == 0;
    for (int64_t line0 = blockIdx.y * int64_t(kBlockLines); line0 < op.lines;
         line0 += int64_t(gridDim.y) * kBlockLines) {
        if constexpr (!kKContiguous) {
            const int64_t line = line0 + lane;
            for (int g = warp; g < kTileK / kWidth; g += kWarps) {
                float v[kWidth];
#pragma unroll
                for (int c = 0; c < kWidth; ++c) {
                    const int64_t k = k0 + kWidth * g + c;
                    v[c] = line < op.lines && k < op.k ? op.x[k * op.ld + line] : 0.f;
                }
                *reinterpret_cast<float4*>(&tile[lane][kWidth * g]) = make_float4(v[0], v[1], v[2], v[3]);
            }
            __syncthreads();
        }
        const int64_t k = k0 + kWidth * lane;
#pragma unroll
        for (int p = 0; p < kLinesPerWarp; ++p) {
            const int r = warp + kWarps * p;
            const int64_t line = line0 + r;
            if (line >= op.lines || k >= kp) continue;
            float v[kWidth];
            if constexpr (kKContiguous) {
                const float* const x = op.x + line * op.ld + k;
                if (aligned_groups && k + kWidth <= op.k) {
#pragma unroll
                    for (int q = 0; q < kWidth / 4; ++q) {
                        const float4 t = reinterpret_cast<const float4*>(x)[q];
                        v[4 * q] = t.x, v[4 * q + 1] = t.y, v[4 * q + 2] = t.z, v[4 * q + 3] = t.w;
                    }
                } else {
#pragma unroll
                    for (int c = 0; c < kWidth; ++c) v[c] = k + c < op.k ? x[c] : 0.f;
                }
            } else {
                const float4 t = *reinterpret_cast<const float4*>(&tile[r][kWidth * lane]);
                v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
            }
            LiftedInteger x[kWidth];
            lift_group(v, line_bits - line_exponent(max_bits[line]), x);
            int8_t* out = planes + line * kp + k;
#pragma unroll
            for (int l = 0; l < kCount; ++l, out += plane) store_residues(x, l, moduli, out);
        }
        if constexpr (!kKContiguous) __syncthreads();  // every lane has read the tile before the next lines fill it
    }
}

// The residue pass for the count of moduli that the scaling check's verdict gives (0: none, and the block returns).
template <bool kKContiguous, int kLinesPerWarp>
__global__ void __launch_bounds__(kThreads, kResidueBlocksPerSm)
    residues_kernel(OperandLines op, OzakiOperand operand, const unsigned* max_bits, const int* bits,
                    const int* verdict, int8_t* planes, int64_t kp, OzakiModuli moduli) {
    static_assert(kOzakiFewestModuli + 1 == kOzakiModuli, "a verdict is 0, kOzakiFewestModuli or kOzakiModuli");
    const int count = *verdict;
    if (count == 0) return;
    const int both = bits[scaling_bits_index(count)];
    const int line_bits = operand == OzakiOperand::kA ? (both + 1) / 2 : both / 2;
    __shared__ __align__(16) LinesTile tile;  // lines stored as columns only
    if (count == kOzakiModuli)
        cut_residues<kKContiguous, kLinesPerWarp, kOzakiModuli>(op, line_bits, max_bits, planes, kp, moduli, tile);
    else
        cut_residues<kKContiguous, kLinesPerWarp, kOzakiFewestModuli>(op, line_bits, max_bits, planes, kp, moduli,
                                                                       tile);
}

// C(i, j) = C_int 2^(e_a(i) + e_b(j) - bits), C_int from its residues modulo the first kModuli moduli by
// crt_fraction (core/layout/residues.h). A thread rebuilds four consecutive elements of a row of C, reading one
// 4-byte word of each modulus's residues (rows of ozaki_product_pitch bytes: every group of a row starts on a word),
// and storing them as one float4 where vector_rows (C's rows of a multiple of 4 elements, each on 16 bytes) and one
// by one otherwise. kRagged (N not a multiple of 4): the last group of each row holds fewer than four elements, whose
// residues it reads byte by byte (the rest of its word is the pitch's padding, never written). The grid strides over
// the groups, stepping (row, group) without dividing.
template <bool kRagged, int kModuli>
__global__ void __launch_bounds__(kThreads) rebuild_kernel(const uint8_t* residues, int M, int N,
                                                           const unsigned* a_max_bits, const unsigned* b_max_bits,
                                                           const int* scaling_bits, float* C, int64_t ldc,
                                                           bool vector_rows, OzakiModuli moduli) {
    const int bits = scaling_bits[0];
    const int64_t pitch = ozaki_product_pitch(N), plane = int64_t(M) * pitch;
    const int64_t row_groups = pitch / kGroupK, groups = int64_t(M) * row_groups;
    const int64_t stride = int64_t(gridDim.x) * kThreads;
    int64_t group = blockIdx.x * int64_t(kThreads) + threadIdx.x;
    if (group >= groups) return;
    int64_t i = group / row_groups, g = group % row_groups;
    const int64_t i_step = stride / row_groups, g_step = stride % row_groups;
    for (; group < groups; group += stride) {
        const int64_t j = g * kGroupK, first = i * pitch + j;
        const int valid = kRagged && N - j < kGroupK ? int(N - j) : kGroupK;
        unsigned words[kModuli] = {};
#pragma unroll
        for (int l = 0; l < kModuli; ++l) {
            const uint8_t* const at = residues + l * plane + first;
            if (!kRagged || valid == kGroupK) {
                words[l] = *reinterpret_cast<const unsigned*>(at);
            } else {
                for (int c = 0; c < valid; ++c) words[l] |= unsigned(at[c]) << (8 * c);
            }
        }
        float value[kGroupK];
#pragma unroll
        for (int c = 0; c < kGroupK; ++c) {
            if (kRagged && c >= valid) break;
            unsigned r[kModuli];
#pragma unroll
            for (int l = 0; l < kModuli; ++l) r[l] = (words[l] >> (8 * c)) & 0xffu;
            const int e = line_exponent(a_max_bits[i]) + line_exponent(b_max_bits[j + c]) - bits - 64;
            value[c] = float(double(crt_fraction(r, moduli)) * (moduli.product * power_of_two(e)));
            if (!vector_rows) C[i * ldc + j + c] = value[c];
        }
        if (vector_rows)
            *reinterpret_cast<float4*>(C + i * ldc + j) = make_float4(value[0], value[1], value[2], value[3]);
        g += g_step;
        i += i_step;
        if (g >= row_groups) g -= row_groups, ++i;
    }
}

int blocks_for(int64_t n, int64_t per_block, int64_t most) {
    const int64_t b = (n - 1) / per_block + 1;
    return int(b < most ? b : most);
}

// The rebuild of C from the residues modulo the first kModuli moduli.
template <int kModuli>
mm_status launch_rebuild(const uint8_t* residues, int M, int N, const unsigned* a_max_bits, const unsigned* b_max_bits,
                         const int* bits, float* C, int64_t ldc, cudaStream_t stream) {
    const int64_t groups = int64_t(M) * (ozaki_product_pitch(N) / kGroupK);
    const int blocks = blocks_for(groups, kThreads, kRebuildBlocks);
    const int* const count_bits = bits + scaling_bits_index(kModuli);
    const OzakiModuli& moduli = ozaki_moduli(kModuli);
    if (N % kGroupK != 0)
        return launch(rebuild_kernel<true, kModuli>, dim3(unsigned(blocks)), dim3(kThreads), 0, stream, "the rebuild",
                      residues, M, N, a_max_bits, b_max_bits, count_bits, C, ldc, false, moduli);
    const bool vector_rows = ldc % kGroupK == 0 && reinterpret_cast<uintptr_t>(C) % 16 == 0;
    return launch(rebuild_kernel<false, kModuli>, dim3(unsigned(blocks)), dim3(kThreads), 0, stream, "the rebuild",
                  residues, M, N, a_max_bits, b_max_bits, count_bits, C, ldc, vector_rows, moduli);
}

// The residue pass's grid: blocks along k (x) by blocks of kWarps lines_per_warp lines (y), which step by its height
// past kMaxGridY.
dim3 residue_grid(const OperandLines& op, int64_t kp, bool k_contiguous, int lines_per_warp) {
    const int tile_k = 32 * (k_contiguous ? kRowGroupK : kColumnGroupK);
    return dim3(unsigned(blocks_for(kp, tile_k, INT32_MAX)),
                unsigned(blocks_for(op.lines, int64_t(kWarps) * lines_per_warp, kMaxGridY)));
}

int64_t residue_blocks(const OperandLines& op, int64_t kp, bool k_contiguous, int lines_per_warp) {
    const dim3 grid = residue_grid(op, kp, k_contiguous, lines_per_warp);
    return int64_t(grid.x) * grid.y;
}

template <bool kKContiguous, int kLinesPerWarp>
mm_status launch_residue_pass(const OperandLines& op, OzakiOperand operand, const unsigned* max_bits, const int* bits,
                              const int* verdict, int8_t* planes, int64_t kp, cudaStream_t stream) {
    const OzakiModuli& moduli = ozaki_moduli(kOzakiModuli);  // a modulus's reduction constants are the same in any set
    return launch(residues_kernel<kKContiguous, kLinesPerWarp>, residue_grid(op, kp, kKContiguous, kLinesPerWarp),
                  dim3(kThreads), 0, stream, "the residues", op, operand, max_bits, bits, verdict, planes, kp, moduli);
}

}  // namespace

mm_status launch_residues(const OperandLines& op, OzakiOperand operand, const unsigned* max_bits, const int* bits,
                          const int* verdict, int8_t* planes, int64_t kp, cudaStream_t stream) {
    if (!op.k_contiguous)
        return launch_residue_pass<false, kMostLinesPerWarp>(op, operand, max_bits, bits, verdict, planes, kp, stream);
    // Along rows: the most lines per warp (more loads in flight per lane) whose blocks still fill one wave of the
    // SMs' block slots; fewer where the operand is too small for that, so that its blocks spread over the SMs.
    int sms = 0;
    MM_TRY(sm_count(&sms));
    const int64_t slots = int64_t(sms) * kResidueBlocksPerSm;
    if (residue_blocks(op, kp, true, kMostLinesPerWarp) >= slots)
        return launch_residue_pass<true, kMostLinesPerWarp>(op, operand, max_bits, bits, verdict, planes, kp, stream);
    if (residue_blocks(op, kp, true, 2) >= slots)
        return launch_residue_pass<true, 2>(op, operand, max_bits, bits, verdict, planes, kp, stream);
    return launch_residue_pass<true, 1>(op, operand, max_bits, bits, verdict, planes, kp, stream);
}

mm_status launch_ozaki_rebuild(const uint8_t* residues, int moduli_count, int M, int N, const unsigned* a_max_bits,
                               const unsigned* b_max_bits, const int* bits, float* C, int64_t ldc,
                               cudaStream_t stream) {
    if (moduli_count == kOzakiFewestModuli)
        return launch_rebuild<kOzakiFewestModuli>(residues, M, N, a_max_bits, b_max_bits, bits, C, ldc, stream);
    return launch_rebuild<kOzakiModuli>(residues, M, N, a_max_bits, b_max_bits, bits, C, ldc, stream);
}

}  // namespace gemm
