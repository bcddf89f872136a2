#include "core/layout/residues.h"

#include <cmath>

#include "core/launch.h"

namespace gemm {

namespace {

// Pairwise coprime, at most 256: 256, 255 = 3 * 5 * 17, 253 = 11 * 23, 247 = 13 * 19 and primes. Their product is
// about 2^63.6.
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

// A value's share of its line's norm: (|x| / 2^e)^2 in units of 2^-32, rounded up (0 for a value the fix-up takes).
__device__ __forceinline__ uint64_t norm_term(float v, int e) {
    if (uncarried(v)) return 0;
    const double r = fabs(double(v)) * power_of_two(-e);  // below 1
    return uint64_t(ceil(__dmul_ru(r, r) * 0x1p32));
}

// One block per line stored as a row.
__global__ void line_norms_along_rows(OperandLines op, const unsigned* max_bits, uint64_t* norms) {
    __shared__ unsigned long long warp_sum[kThreads / 32];
    const int64_t line = blockIdx.x;
    const float* x = op.x + line * op.ld;
    const int e = line_exponent(max_bits[line]);
    unsigned long long sum = 0;
    for (int64_t k = threadIdx.x; k < op.k; k += kThreads) sum += norm_term(x[k], e);
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) warp_sum[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long total = 0;
        for (int w = 0; w < kThreads / 32; ++w) total += warp_sum[w];
        atomicAdd(reinterpret_cast<unsigned long long*>(norms + line), total);
    }
}

// A thread per line stored as a column, a stretch of kThreads k per block row (integer sums: any order gives the
// same total).
__global__ void line_norms_along_columns(OperandLines op, const unsigned* max_bits, uint64_t* norms) {
    const int64_t line = blockIdx.x * int64_t(kThreads) + threadIdx.x;
    if (line >= op.lines) return;
    const int e = line_exponent(max_bits[line]);
    for (int64_t k0 = blockIdx.y * int64_t(kThreads); k0 < op.k; k0 += int64_t(gridDim.y) * kThreads) {
        uint64_t sum = 0;
        const int64_t end = min(op.k, k0 + kThreads);
        for (int64_t k = k0; k < end; ++k) sum += norm_term(op.x[k * op.ld + line], e);
        if (sum != 0) atomicAdd(reinterpret_cast<unsigned long long*>(norms + line), sum);
    }
}

// The largest norm (in units of 2^-32, squared) over `lines` lines, reduced by one block.
__device__ unsigned long long block_max(const uint64_t* norms, int64_t lines) {
    __shared__ unsigned long long warp_max[kThreads / 32];
    unsigned long long top = 0;
    for (int64_t i = threadIdx.x; i < lines; i += kThreads) top = max(top, (unsigned long long)norms[i]);
    for (int offset = 16; offset > 0; offset /= 2) top = max(top, __shfl_down_sync(0xffffffffu, top, offset));
    if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = top;
    __syncthreads();
    unsigned long long result = 0;
    for (int w = 0; w < kThreads / 32; ++w) result = max(result, warp_max[w]);
    __syncthreads();  // every thread reads warp_max before a second call writes it
    return result;
}

// alpha + beta: the largest sum up to 62 for which (2^alpha rho_a + s)(2^beta rho_b + s) < M / 2, where rho is an
// operand's largest ||x|| / 2^e and s = sqrt(k) / 2 bounds the norm of a line's rounding errors; every operation
// rounds up, and M / 2 is taken a little low.
__global__ void scaling_bits_kernel(const uint64_t* a_norms, int64_t a_lines, const uint64_t* b_norms,
                                    int64_t b_lines, int64_t k, double product, int* bits) {
    const unsigned long long a_top = block_max(a_norms, a_lines), b_top = block_max(b_norms, b_lines);
    if (threadIdx.x != 0) return;
    const double rho_a = __dsqrt_ru(double(a_top) * 0x1p-32), rho_b = __dsqrt_ru(double(b_top) * 0x1p-32);
    const double slack = __dmul_ru(0.5, __dsqrt_ru(double(k))), half = product * 0.5 * (1.0 - 0x1p-40);
    int total = 62;
    for (; total > 0; --total) {
        const int alpha = (total + 1) / 2, beta = total / 2;
        const double a = __dadd_ru(__dmul_ru(power_of_two(alpha), rho_a), slack);
        const double b = __dadd_ru(__dmul_ru(power_of_two(beta), rho_b), slack);
        if (__dmul_ru(a, b) < half) break;
    }
    bits[0] = total;
}

// A 32 x 32 tile of lines x k through shared memory (so that both the read and the K-major writes are along
// contiguous addresses), each value scaled, rounded and reduced modulo every modulus.
template <bool kKContiguous>
__global__ void residues_kernel(OperandLines op, OzakiOperand operand, const unsigned* max_bits, const int* bits,
                                int8_t* planes, int64_t kp, OzakiModuli moduli) {
    const int line_bits = operand == OzakiOperand::kA ? (bits[0] + 1) / 2 : bits[0] / 2;
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
                uncarried(v) ? 0.0 : rint(double(v) * power_of_two(line_bits - line_exponent(max_bits[line])));
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
                               const unsigned* b_max_bits, const int* scaling_bits, float* C, int64_t ldc,
                               OzakiModuli moduli) {
    const int bits = scaling_bits[0];
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
        return o;
    }();
    return moduli;
}

mm_status launch_line_max(const OperandLines& op, unsigned* max_bits, int* flags, cudaStream_t stream) {
    if (op.k_contiguous)
        return launch(line_max_along_rows, dim3(unsigned(op.lines)), dim3(kThreads), 0, stream, "the lines' maxima",
                      op, max_bits, flags);
    const dim3 grid(unsigned(blocks_for(op.lines, kThreads, INT32_MAX)), unsigned(blocks_for(op.k, kThreads, kMaxGridY)));
    return launch(line_max_along_columns, grid, dim3(kThreads), 0, stream, "the lines' maxima", op, max_bits, flags);
}

mm_status launch_line_norms(const OperandLines& op, const unsigned* max_bits, uint64_t* norms, cudaStream_t stream) {
    if (op.k_contiguous)
        return launch(line_norms_along_rows, dim3(unsigned(op.lines)), dim3(kThreads), 0, stream, "the lines' norms",
                      op, max_bits, norms);
    const dim3 grid(unsigned(blocks_for(op.lines, kThreads, INT32_MAX)), unsigned(blocks_for(op.k, kThreads, kMaxGridY)));
    return launch(line_norms_along_columns, grid, dim3(kThreads), 0, stream, "the lines' norms", op, max_bits, norms);
}

mm_status launch_scaling_bits(const uint64_t* a_norms, int64_t a_lines, const uint64_t* b_norms, int64_t b_lines,
                              int64_t k, int* bits, cudaStream_t stream) {
    return launch(scaling_bits_kernel, dim3(1), dim3(kThreads), 0, stream, "the scaling's bits", a_norms, a_lines,
                  b_norms, b_lines, k, ozaki_moduli().product, bits);
}

mm_status launch_residues(const OperandLines& op, OzakiOperand operand, const unsigned* max_bits, const int* bits,
                          int8_t* planes, int64_t kp, cudaStream_t stream) {
    const dim3 grid(unsigned(blocks_for(op.lines, kTile, INT32_MAX)), unsigned(blocks_for(kp, kTile, kMaxGridY)));
    const dim3 block(kTile, kTileRowsPerPass);
    if (op.k_contiguous)
        return launch(residues_kernel<true>, grid, block, 0, stream, "the residues", op, operand, max_bits, bits,
                      planes, kp, ozaki_moduli());
    return launch(residues_kernel<false>, grid, block, 0, stream, "the residues", op, operand, max_bits, bits, planes,
                  kp, ozaki_moduli());
}

mm_status launch_ozaki_rebuild(const uint8_t* residues, int M, int N, const unsigned* a_max_bits,
                               const unsigned* b_max_bits, const int* bits, float* C, int64_t ldc,
                               cudaStream_t stream) {
    const int blocks = blocks_for(int64_t(M) * N, kThreads, kRebuildBlocks);
    return launch(rebuild_kernel, dim3(unsigned(blocks)), dim3(kThreads), 0, stream, "the rebuild", residues, M, N,
                  a_max_bits, b_max_bits, bits, C, ldc, ozaki_moduli());
}

}  // namespace gemm
