#include "core/layout/residues.h"

#include <cmath>

#include "core/launch.h"

namespace gemm {

namespace {

// Pairwise coprime, at most 256: 256, 255 = 3 * 5 * 17, 253 = 11 * 23, 247 = 13 * 19 and primes. Their product is
// about 2^63.6: products of the scaled operands keep about 62 - log2 K bits.
constexpr int kModuli[kOzakiModuli] = {256, 255, 253, 251, 247, 241, 239, 233};

constexpr int kThreads = 256;
constexpr int kTile = 32;  // lines x k of one block of the residue pass
constexpr int kTileRowsPerPass = 8;
constexpr int kMaxGridY = 65535;
constexpr int kRebuildBlocks = 4096;  // at most: a grid-stride loop over C covers the rest

// Whether x is left to the fix-up: an Inf or NaN, or a magnitude of kOzakiLargeMagnitude or more.
__device__ __forceinline__ bool uncarried(float x) { return !(fabsf(x) < kOzakiLargeMagnitude); }

// e with max |x| < 2^e for the line whose largest finite magnitude has these bits (0 for a line of zeros).
__device__ __forceinline__ int line_exponent(unsigned max_bits) {
    if (max_bits == 0) return 0;
    int e = 0;
    frexpf(__uint_as_float(max_bits), &e);
    return e;
}

// 2^e as a double, exactly, for e within the double exponent's normal range (a multiplication by it is exact where
// ldexp would call a function that handles every range).
__device__ __forceinline__ double power_of_two(int e) { return __longlong_as_double((long long)(e + 1023) << 52); }

// One block per line stored as a row: its largest magnitude and whether a value the scheme leaves to the fix-up is
// there.
__global__ void line_max_along_rows(OperandLines op, unsigned* max_bits, int* flags) {
    __shared__ unsigned warp_max[kThreads / 32];
    __shared__ int warp_flag[kThreads / 32];
    const int64_t line = blockIdx.x;
    const float* x = op.x + line * op.ld;
    unsigned top = 0;
    bool flagged = false;
    for (int64_t k = threadIdx.x; k < op.k; k += kThreads) {
        const float v = x[k];
        if (uncarried(v))
            flagged = true;
        else
            top = max(top, __float_as_uint(fabsf(v)));
    }
    top = __reduce_max_sync(0xffffffffu, top);
    const bool any = __any_sync(0xffffffffu, flagged);
    if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = top, warp_flag[threadIdx.x / 32] = any;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned m = 0;
        int f = 0;
        for (int w = 0; w < kThreads / 32; ++w) m = max(m, warp_max[w]), f |= warp_flag[w];
        max_bits[line] = m;
        if (f) flags[line] = 1;
    }
}

// A thread per line stored as a column, a stretch of kThreads k per block row: atomicMax of the bits, which gives
// the same maximum in any order.
__global__ void line_max_along_columns(OperandLines op, unsigned* max_bits, int* flags) {
    const int64_t line = blockIdx.x * int64_t(kThreads) + threadIdx.x;
    if (line >= op.lines) return;
    for (int64_t k0 = blockIdx.y * int64_t(kThreads); k0 < op.k; k0 += int64_t(gridDim.y) * kThreads) {
        unsigned top = 0;
        bool flagged = false;
        const int64_t end = min(op.k, k0 + kThreads);
        for (int64_t k = k0; k < end; ++k) {
            const float v = op.x[k * op.ld + line];
            if (uncarried(v))
                flagged = true;
            else
                top = max(top, __float_as_uint(fabsf(v)));
        }
        if (top != 0) atomicMax(max_bits + line, top);
        if (flagged) flags[line] = 1;
    }
}

// A 32 x 32 tile of lines x k through shared memory (so that both the read and the K-major writes are along
// contiguous addresses), each value scaled, rounded and reduced modulo every modulus.
template <bool kKContiguous>
__global__ void residues_kernel(OperandLines op, const unsigned* max_bits, int bits, int8_t* planes, int64_t kp,
                                OzakiModuli moduli) {
    __shared__ float tile[kTile][kTile + 1];  // [line][k]
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t line0 = blockIdx.x * int64_t(kTile);
    const int64_t plane = op.lines * kp;
    for (int64_t k0 = blockIdx.y * int64_t(kTile); k0 < kp; k0 += int64_t(gridDim.y) * kTile) {
        for (int r = ty; r < kTile; r += kTileRowsPerPass) {
            if constexpr (kKContiguous) {
                const int64_t line = line0 + r, k = k0 + tx;
                tile[r][tx] = line < op.lines && k < op.k ? op.x[line * op.ld + k] : 0.f;
            } else {
                const int64_t line = line0 + tx, k = k0 + r;
                tile[tx][r] = line < op.lines && k < op.k ? op.x[k * op.ld + line] : 0.f;
            }
        }
        __syncthreads();
        for (int r = ty; r < kTile; r += kTileRowsPerPass) {
            const int64_t line = line0 + r, k = k0 + tx;
            if (line >= op.lines || k >= kp) continue;
            const float v = tile[r][tx];
            // At most 2^31 in magnitude, cut into hi 2^16 + lo for residue_of (2^31 itself does not fit an int).
            const double scaled =
                uncarried(v) ? 0.0 : rint(double(v) * power_of_two(bits - line_exponent(max_bits[line])));
            const double hi = floor(scaled * 0x1p-16);
            const int high = int(hi);
            const unsigned low = unsigned(scaled - hi * 0x1p16);
            int8_t* const out = planes + line * kp + k;
#pragma unroll
            for (int l = 0; l < kOzakiModuli; ++l) {
                const OzakiModulus& mod = moduli.modulus[l];
                int residue = residue_of(high, low, mod);
                if (residue >= (mod.m + 1) / 2) residue -= mod.m;  // symmetric: [-m/2, m/2) fits int8
                out[l * plane] = int8_t(residue);
            }
        }
        __syncthreads();
    }
}

// C(i, j) = M (t - round(t)) 2^(e_a(i) + e_b(j) - bits), t = sum over l of ((r_l * inverse_l) mod m_l) / m_l: the
// Chinese remainder theorem's sum divided by M, whose fractional part times M is the integer product, centred. The
// grid strides over C in row-major order, stepping (i, j) without dividing.
__global__ void rebuild_kernel(const uint8_t* residues, int M, int N, const unsigned* a_max_bits,
                               const unsigned* b_max_bits, int bits, float* C, int64_t ldc, OzakiModuli moduli) {
    const int64_t count = int64_t(M) * N, stride = int64_t(gridDim.x) * kThreads;
    int64_t idx = blockIdx.x * int64_t(kThreads) + threadIdx.x;
    if (idx >= count) return;
    int64_t i = idx / N, j = idx % N;
    const int64_t i_step = stride / N, j_step = stride % N;
    for (; idx < count; idx += stride) {
        double t = 0.0;
#pragma unroll
        for (int l = 0; l < kOzakiModuli; ++l) {
            const OzakiModulus& mod = moduli.modulus[l];
            const int u = residue_of(int(residues[l * count + idx]) * mod.inverse, mod);
            t += double(u) * mod.reciprocal;
        }
        const double integer = moduli.product * (t - rint(t));
        const int e = line_exponent(a_max_bits[i]) + line_exponent(b_max_bits[j]) - bits;
        C[i * ldc + j] = float(integer * power_of_two(e));
        i += i_step;
        j += j_step;
        if (j >= N) j -= N, ++i;
    }
}

int blocks_for(int64_t n, int64_t per_block, int64_t most) {
    const int64_t b = (n - 1) / per_block + 1;
    return int(b < most ? b : most);
}

}  // namespace

const OzakiModuli& ozaki_moduli() {
    static const OzakiModuli moduli = [] {
        OzakiModuli o{};
        unsigned __int128 product = 1;
        for (int l = 0; l < kOzakiModuli; ++l) product *= unsigned(kModuli[l]);
        for (int l = 0; l < kOzakiModuli; ++l) {
            const int m = kModuli[l];
            OzakiModulus& mod = o.modulus[l];
            mod.m = m;
            const int rest = int((product / unsigned(m)) % unsigned(m));
            for (int y = 1; y < m; ++y)
                if (rest * y % m == 1) mod.inverse = y;
            mod.two16 = (1 << 16) % m;
            mod.magic = unsigned(((uint64_t(1) << 32) + unsigned(m) - 1) / unsigned(m));
            mod.reciprocal = 1.0 / m;
        }
        o.product = double(product);
        for (unsigned __int128 p = product; p != 0; p >>= 1) ++o.product_bits;
        return o;
    }();
    return moduli;
}

int ozaki_scaling_bits(int64_t K) {
    int log2_k = 0;
    while ((int64_t(1) << log2_k) < K) ++log2_k;
    // K 2^(alpha + beta) <= 2^(product_bits - 2) <= M / 2, with equality only for M a power of two.
    return ozaki_moduli().product_bits - 2 - log2_k;
}

mm_status launch_line_max(const OperandLines& op, unsigned* max_bits, int* flags, cudaStream_t stream) {
    if (op.k_contiguous)
        return launch(line_max_along_rows, dim3(unsigned(op.lines)), dim3(kThreads), 0, stream, "the lines' maxima",
                      op, max_bits, flags);
    const dim3 grid(unsigned(blocks_for(op.lines, kThreads, INT32_MAX)), unsigned(blocks_for(op.k, kThreads, kMaxGridY)));
    return launch(line_max_along_columns, grid, dim3(kThreads), 0, stream, "the lines' maxima", op, max_bits, flags);
}

mm_status launch_residues(const OperandLines& op, const unsigned* max_bits, int bits, int8_t* planes, int64_t kp,
                          cudaStream_t stream) {
    const dim3 grid(unsigned(blocks_for(op.lines, kTile, INT32_MAX)), unsigned(blocks_for(kp, kTile, kMaxGridY)));
    const dim3 block(kTile, kTileRowsPerPass);
    if (op.k_contiguous)
        return launch(residues_kernel<true>, grid, block, 0, stream, "the residues", op, max_bits, bits, planes, kp,
                      ozaki_moduli());
    return launch(residues_kernel<false>, grid, block, 0, stream, "the residues", op, max_bits, bits, planes, kp,
                  ozaki_moduli());
}

mm_status launch_ozaki_rebuild(const uint8_t* residues, int M, int N, const unsigned* a_max_bits,
                               const unsigned* b_max_bits, int bits, float* C, int64_t ldc, cudaStream_t stream) {
    const int blocks = blocks_for(int64_t(M) * N, kThreads, kRebuildBlocks);
    return launch(rebuild_kernel, dim3(unsigned(blocks)), dim3(kThreads), 0, stream, "the rebuild", residues, M, N,
                  a_max_bits, b_max_bits, bits, C, ldc, ozaki_moduli());
}

}  // namespace gemm
