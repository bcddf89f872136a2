// Probe: does keeping X's loads in flight while the sums are taken (a register pipeline P steps deep) let a
// few-row product C = Y X (Y: S x K row-major, X: K x L row-major, the B of a decode-sized product) stream X near
// the rate a plain read reaches?
//
// Kernel `stream<S, U, P>`: a block is 256 threads over 128 columns of X (a lane's 4 columns, float4 loads that
// bypass L1); its 8 warps take K's quads in turn (warp w: quads w, w + 8, ...), U quads per step, and each lane keeps
// the loads of the next P - 1 steps in flight while it multiplies the current one. Y(s, k .. k + 3) comes by 16-byte
// loads through L1 (every lane of a warp reads the same k: a broadcast). K is cut into Z slices across blocks; the
// block's 8 warps add their sums in shared memory in warp order, and the last block of each column (a counter) adds
// the Z slices in slice order: deterministic. Also a plain read of the same bytes (the ceiling of one kernel).
// Needs K % 4 == 0 and L % 4 == 0 (a probe, not the product).
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o probe probe.cu      Run: ./probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ __forceinline__ float4 ld_stream(const float* p) {
    float4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ float at(const float4& v, int i) { return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w; }

template <int S, int U, int P>
__global__ void __launch_bounds__(256) stream(const float* __restrict__ X, const float* __restrict__ Y, float* C,
                                              int L, int K, int quads_per_slice, float* work, unsigned* counters) {
    __shared__ float4 part[S][32];
    __shared__ bool last;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int l = blockIdx.x * 128 + lane * 4;
    const bool live = l < L;
    const int q_begin = blockIdx.y * quads_per_slice, q_end = min(K / 4, q_begin + quads_per_slice);
    float acc[S][4] = {};
    float4 buf[P][U][4];
    auto load = [&](float4 (&x)[U][4], int q0) {
#pragma unroll
        for (int u = 0; u < U; ++u) {
            const int q = q0 + 8 * u;
#pragma unroll
            for (int j = 0; j < 4; ++j)
                x[u][j] = (q < q_end && live) ? ld_stream(X + size_t(4 * q + j) * L + l) : make_float4(0, 0, 0, 0);
        }
    };
    const int step = 8 * U;  // quads the block advances per step
    int q = q_begin + warp;
#pragma unroll
    for (int p = 0; p < P - 1; ++p) load(buf[p], q + p * step);
    for (; q < q_end; q += P * step) {
#pragma unroll
        for (int p = 0; p < P; ++p) {
            const int qs = q + p * step;
            load(buf[(p + P - 1) % P], qs + (P - 1) * step);
            if (qs < q_end) {
#pragma unroll
                for (int u = 0; u < U; ++u) {
                    const int qu = qs + 8 * u;
                    if (qu < q_end) {
#pragma unroll
                        for (int s = 0; s < S; ++s) {
                            const float4 y = __ldg(reinterpret_cast<const float4*>(Y + size_t(s) * K + 4 * qu));
#pragma unroll
                            for (int j = 0; j < 4; ++j) {
                                const float ys = at(y, j);
                                const float4 x = buf[p][u][j];
                                acc[s][0] = fmaf(ys, x.x, acc[s][0]);
                                acc[s][1] = fmaf(ys, x.y, acc[s][1]);
                                acc[s][2] = fmaf(ys, x.z, acc[s][2]);
                                acc[s][3] = fmaf(ys, x.w, acc[s][3]);
                            }
                        }
                    }
                }
            }
        }
    }
    for (int w = 0; w < 8; ++w) {
        if (warp == w)
#pragma unroll
            for (int s = 0; s < S; ++s) {
                float4 t = w == 0 ? make_float4(0, 0, 0, 0) : part[s][lane];
                t.x += acc[s][0], t.y += acc[s][1], t.z += acc[s][2], t.w += acc[s][3];
                part[s][lane] = t;
            }
        __syncthreads();
    }
    const float* sums = reinterpret_cast<const float*>(&part[0][0]);  // [s][128 columns]
    const int Z = gridDim.y, n = S * 128;
    auto store = [&](int o, float v) { const int c = blockIdx.x * 128 + o % 128; if (c < L) C[size_t(o / 128) * L + c] = v; };
    if (Z == 1) {
        for (int o = threadIdx.x; o < n; o += 256) store(o, sums[o]);
        return;
    }
    float* mine = work + (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * n;
    for (int o = threadIdx.x; o < n; o += 256) mine[o] = sums[o];
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) last = atomicAdd(counters + blockIdx.x, 1u) == unsigned(Z - 1);
    __syncthreads();
    if (!last) return;
    __threadfence();
    for (int o = threadIdx.x; o < n; o += 256) {
        float t = 0.f;
        for (int z = 0; z < Z; ++z) t += __ldcg(work + (size_t(z) * gridDim.x + blockIdx.x) * n + o);
        store(o, t);
    }
    if (threadIdx.x == 0) counters[blockIdx.x] = 0;
}

// A plain read: every float4 of n summed, 4 loads in flight per thread; one float per block written.
__global__ void __launch_bounds__(256) plain_read(const float4* __restrict__ x, size_t n, float* out) {
    float t = 0.f;
    const size_t stride = size_t(gridDim.x) * 256;
    size_t i = size_t(blockIdx.x) * 256 + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        float4 v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) v[u] = ld_stream(reinterpret_cast<const float*>(x + i + u * stride));
#pragma unroll
        for (int u = 0; u < 4; ++u) t += v[u].x + v[u].y + v[u].z + v[u].w;
    }
    for (; i < n; i += stride) { const float4 v = x[i]; t += v.x + v.y + v.z + v.w; }
    if (t == 12345.f) out[blockIdx.x] = t;
}

__global__ void reference(const float* X, const float* Y, double* R, int S, int L, int K) {
    const int l = blockIdx.x * blockDim.x + threadIdx.x, s = blockIdx.y;
    if (l >= L) return;
    double t = 0;
    for (int k = 0; k < K; ++k) t += double(Y[size_t(s) * K + k]) * X[size_t(k) * L + l];
    R[size_t(s) * L + l] = t;
}

__global__ void fill(float* p, size_t n, unsigned seed) {
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        unsigned h = unsigned(i) * 2654435761u ^ seed;
        h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
        p[i] = (h & 0xffffff) / float(0x800000) - 1.f;
    }
}

template <class F>
float median_us(F launch, int reps = 25) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; ++i) launch();
    std::vector<float> t;
    for (int i = 0; i < reps; ++i) {
        CK(cudaEventRecord(a)); launch(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms * 1000.f);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct Buffers { float *X, *Y, *C, *work; double* R; unsigned* counters; };

template <int S, int U, int P>
void try_config(const Buffers& b, int Sreal, int L, int K, double floor_us, int sms) {
    static_assert(S % 1 == 0, "");
    if (Sreal > S) return;
    int regs = 0;
    cudaFuncAttributes attr; CK(cudaFuncGetAttributes(&attr, stream<S, U, P>)); regs = attr.numRegs;
    int per_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream<S, U, P>, 256, 0));
    const int columns = (L + 127) / 128, quads = K / 4;
    for (int Z : {1, 2, 3, 4, 6, 8, 12, 16}) {
        const int qps = (quads + Z - 1) / Z;
        if (Z > 1 && qps < 64) break;
        const dim3 grid(columns, Z);
        // Y rows past Sreal hold other data: give the kernel Y with Sreal rows by zero rows? The probe reads S rows,
        // so Y is allocated with S rows and rows >= Sreal are zero; C has S rows.
        CK(cudaMemset(b.C, 0xff, size_t(S) * L * 4));
        stream<S, U, P><<<grid, 256>>>(b.X, b.Y, b.C, L, K, qps, b.work, b.counters);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        std::vector<float> c(size_t(Sreal) * L); std::vector<double> r(size_t(Sreal) * L);
        CK(cudaMemcpy(c.data(), b.C, c.size() * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(r.data(), b.R, r.size() * 8, cudaMemcpyDeviceToHost));
        double e2 = 0, r2 = 0;
        for (size_t i = 0; i < c.size(); ++i) { e2 += (c[i] - r[i]) * (c[i] - r[i]); r2 += r[i] * r[i]; }
        const float us = median_us([&] { stream<S, U, P><<<grid, 256>>>(b.X, b.Y, b.C, L, K, qps, b.work, b.counters); });
        printf("  S%-2d U%d P%d regs %3d %d/SM Z%-2d blocks %5d: %8.2f us  %5.1f%% roof  err %.1e%s\n", S, U, P, regs,
               per_sm, Z, columns * Z, us, 100 * floor_us / us, std::sqrt(e2 / r2), std::sqrt(e2 / r2) < 1e-5 ? "" : " BAD");
    }
    (void)sms;
}

int main() {
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const size_t big = size_t(1) << 29;  // 2 GiB of floats for the bandwidth figure
    float* huge; CK(cudaMalloc(&huge, big * 4)); fill<<<1024, 256>>>(huge, big, 7);
    float* sink; CK(cudaMalloc(&sink, 1 << 20));
    const float us2g = median_us([&] { plain_read<<<sms * 8, 256>>>(reinterpret_cast<const float4*>(huge), big / 4, sink); }, 5);
    const double hbm = big * 4 / (us2g * 1e-6);
    printf("plain read of 2 GiB: %.1f us, %.2f TB/s\n", us2g, hbm / 1e12);
    struct Shape { int S, L, K; };
    const Shape shapes[] = {{1, 4096, 4096}, {8, 4096, 4096}, {11, 14336, 2500 - 4}, {13, 5120, 13824}, {17, 8000, 8000},
                            {1, 1500, 9000}, {3, 11008, 4096}, {6, 6000, 5000}, {4, 12000, 16384}, {20, 10000, 3000},
                            {16, 4096, 4096}};
    Buffers b;
    CK(cudaMalloc(&b.Y, size_t(32) * 20000 * 4)); CK(cudaMalloc(&b.C, size_t(32) * 20000 * 4));
    CK(cudaMalloc(&b.work, size_t(64) << 20)); CK(cudaMalloc(&b.R, size_t(32) * 20000 * 8));
    CK(cudaMalloc(&b.counters, 1 << 16)); CK(cudaMemset(b.counters, 0, 1 << 16));
    for (const Shape& sh : shapes) {
        const int L = sh.L, K = sh.K;
        b.X = huge;  // a fresh region per shape is not needed: X is read once per launch, larger than L2 or not
        const double bytes = 4.0 * (double(sh.S) * K + double(K) * L + double(sh.S) * L);
        const double floor_us = std::max(bytes / hbm, 2.0 * sh.S * L * K / 66.9e12) * 1e6;
        // Y: S_max rows of K; rows past S zero.
        CK(cudaMemset(b.Y, 0, size_t(32) * 20000 * 4));
        fill<<<256, 256>>>(b.Y, size_t(sh.S) * K, 11);
        dim3 rg((L + 127) / 128, sh.S);
        reference<<<rg, 128>>>(b.X, b.Y, b.R, sh.S, L, K);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        const float read_us = median_us([&] { plain_read<<<sms * 8, 256>>>(reinterpret_cast<const float4*>(b.X), size_t(K) * L / 4, sink); });
        printf("%dx%dx%d: floor %.1f us; plain read of X %.2f us (%.1f%% roof)\n", sh.S, L, K, floor_us, read_us, 100 * floor_us / read_us);
        // Y is S x K with ldy = K for every S the kernel holds: the zero rows past sh.S sit at s * K.
        try_config<1, 2, 2>(b, sh.S, L, K, floor_us, sms);
        try_config<1, 2, 3>(b, sh.S, L, K, floor_us, sms);
        try_config<4, 1, 2>(b, sh.S, L, K, floor_us, sms);
        try_config<4, 2, 2>(b, sh.S, L, K, floor_us, sms);
        try_config<8, 1, 2>(b, sh.S, L, K, floor_us, sms);
        try_config<8, 1, 3>(b, sh.S, L, K, floor_us, sms);
        try_config<12, 1, 2>(b, sh.S, L, K, floor_us, sms);
        try_config<16, 1, 2>(b, sh.S, L, K, floor_us, sms);
        try_config<20, 1, 2>(b, sh.S, L, K, floor_us, sms);
    }
    return 0;
}
