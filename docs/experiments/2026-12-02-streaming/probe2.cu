// Probe 2: register-fed small-side products whose k is the same across a warp, so that the small operand Y is a
// broadcast, on both layouts of the large operand X:
//   along L (X(k, l) at k * ldx + l: B of a few-row product): a lane holds S x 4 sums for 4 consecutive l;
//   along K (X(l, k) at l * ldx + k: A of a few-column product, or the weight of x @ W^T): a lane holds R x S sums for
//   R rows of X, 32 lanes 32 rows apart, and reads 64 bytes of each row per step.
// K is cut within the block among 8 warps and across Z blocks; the Z slices are added by the last block of each
// column in a fixed order (a counter per column, zeroed once, reset by that block), or by a thread block cluster
// through distributed shared memory. Both are deterministic.
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -o probe2 probe2.cu      Run: ./probe2
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)
namespace cg = cooperative_groups;

__device__ __forceinline__ float4 ld_stream(const float* p) {
    float4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ float4 ld_cached(const float* p) { return __ldg(reinterpret_cast<const float4*>(p)); }
__device__ __forceinline__ float at(const float4& v, int i) { return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w; }

enum Reduce { kCounter = 0, kCluster = 1 };

// The block's outputs: n floats in smem `sums`; slices added by counter or cluster; `store(o, value)` writes C.
template <class Store>
__device__ void finish(float* sums, int n, float* work, unsigned* counters, int mode, Store store) {
    const int Z = gridDim.y;
    if (Z == 1) {
        for (int o = threadIdx.x; o < n; o += blockDim.x) store(o, sums[o]);
        return;
    }
    if (mode == kCluster) {
        cg::cluster_group cluster = cg::this_cluster();
        cluster.sync();
        const int ranks = cluster.num_blocks(), rank = cluster.block_rank();
        for (int o = rank * blockDim.x + threadIdx.x; o < n; o += ranks * blockDim.x) {
            float t = 0.f;
            for (int r = 0; r < ranks; ++r) t += cluster.map_shared_rank(sums, r)[o];
            store(o, t);
        }
        cluster.sync();
        return;
    }
    __shared__ bool last;
    float* mine = work + (size_t(blockIdx.y) * gridDim.x + blockIdx.x) * n;
    for (int o = threadIdx.x; o < n; o += blockDim.x) mine[o] = sums[o];
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) last = atomicAdd(counters + blockIdx.x, 1u) == unsigned(Z - 1);
    __syncthreads();
    if (!last) return;
    __threadfence();
    for (int o = threadIdx.x; o < n; o += blockDim.x) {
        float t = 0.f;
        for (int z = 0; z < Z; ++z) t += __ldcg(work + (size_t(z) * gridDim.x + blockIdx.x) * n + o);
        store(o, t);
    }
    if (threadIdx.x == 0) counters[blockIdx.x] = 0;
}

// Along L: block = 128 l (a warp's 32 float4) x 8 warps along K; Q k-quads per warp step.
template <int S, int Q>
__global__ void __launch_bounds__(256) along_l(const float* __restrict__ X, int ldx, const float* __restrict__ Y, int ldy,
                                               float* C, int L, int K, int kps, float* work, unsigned* counters, int mode) {
    __shared__ float4 part[S][32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int l = blockIdx.x * 128 + lane * 4;
    const int k0 = blockIdx.y * kps, k1 = min(K, k0 + kps);
    float acc[S][4] = {};
    for (int kq = k0 + 4 * warp; kq < k1; kq += 32 * Q) {
        float4 x[Q][4], y[Q][S];
#pragma unroll
        for (int q = 0; q < Q; ++q) {
            const int k = kq + 32 * q;
            const bool in = k < k1;
#pragma unroll
            for (int j = 0; j < 4; ++j) x[q][j] = in ? ld_stream(X + size_t(k + j) * ldx + l) : make_float4(0, 0, 0, 0);
#pragma unroll
            for (int s = 0; s < S; ++s) y[q][s] = in ? ld_cached(Y + size_t(s) * ldy + k) : make_float4(0, 0, 0, 0);
        }
#pragma unroll
        for (int q = 0; q < Q; ++q)
#pragma unroll
            for (int s = 0; s < S; ++s)
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const float ys = at(y[q][s], j);
                    acc[s][0] = fmaf(ys, x[q][j].x, acc[s][0]);
                    acc[s][1] = fmaf(ys, x[q][j].y, acc[s][1]);
                    acc[s][2] = fmaf(ys, x[q][j].z, acc[s][2]);
                    acc[s][3] = fmaf(ys, x[q][j].w, acc[s][3]);
                }
    }
    for (int w = 0; w < 8; ++w) {  // the warps' sums in warp order
        if (warp == w)
#pragma unroll
            for (int s = 0; s < S; ++s) {
                float4 t = w == 0 ? make_float4(0, 0, 0, 0) : part[s][lane];
                t.x += acc[s][0], t.y += acc[s][1], t.z += acc[s][2], t.w += acc[s][3];
                part[s][lane] = t;
            }
        __syncthreads();
    }
    float* sums = reinterpret_cast<float*>(&part[0][0]);  // [s][l of the block]
    finish(sums, S * 128, work, counters, mode, [&](int o, float v) { C[size_t(o / 128) * L + blockIdx.x * 128 + o % 128] = v; });
}

// Along K: lane owns rows row0 + lane + 32 r (r < R); the block's 8 warps take contiguous parts of the K slice;
// a step reads 16 k (64 bytes) of each row; Y(k, s) at k * ldy + s, a broadcast.
template <int S, int R>
__global__ void __launch_bounds__(256) along_k(const float* __restrict__ X, int ldx, const float* __restrict__ Y, int ldy,
                                               float* C, int L, int K, int kps, float* work, unsigned* counters, int mode) {
    __shared__ float part[8][32 * R][S + 1];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int row0 = blockIdx.x * 32 * R;
    const int k0 = blockIdx.y * kps, k1 = min(K, k0 + kps);
    const int per_warp = ((k1 - k0 + 7) / 8 + 15) / 16 * 16;
    const int kw0 = k0 + warp * per_warp, kw1 = min(k1, kw0 + per_warp);
    float acc[R][S] = {};
    for (int k = kw0; k < kw1; k += 16) {
        float4 x[R][4];
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                x[r][j] = k + 4 * j < kw1 ? ld_stream(X + size_t(row0 + lane + 32 * r) * ldx + k + 4 * j) : make_float4(0, 0, 0, 0);
#pragma unroll
        for (int kk = 0; kk < 16; ++kk) {
            if (k + kk >= kw1) break;
            float y[S];
#pragma unroll
            for (int s = 0; s < S; s += 4) {
                if (S >= 4) {
                    const float4 v = ld_cached(Y + size_t(k + kk) * ldy + s);
                    y[s] = v.x, y[s + 1] = v.y, y[s + 2] = v.z, y[s + 3] = v.w;
                } else {
#pragma unroll
                    for (int t = 0; t < S; ++t) y[t] = __ldg(Y + size_t(k + kk) * ldy + t);
                }
            }
#pragma unroll
            for (int r = 0; r < R; ++r)
#pragma unroll
                for (int s = 0; s < S; ++s) acc[r][s] = fmaf(at(x[r][kk / 4], kk % 4), y[s], acc[r][s]);
        }
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
        for (int s = 0; s < S; ++s) part[warp][lane + 32 * r][s] = acc[r][s];
    __syncthreads();
    __shared__ float sums[32 * R * S];
    for (int o = threadIdx.x; o < 32 * R * S; o += 256) {
        float t = 0.f;
        for (int w = 0; w < 8; ++w) t += part[w][o / S][o % S];
        sums[o] = t;
    }
    __syncthreads();
    finish(sums, 32 * R * S, work, counters, mode, [&](int o, float v) { C[size_t(row0 + o / S) * S + o % S] = v; });
}


// Along K, lanes along K: KL lanes read 16-byte pieces of one row side by side (KL x 16 bytes contiguous), the warp's
// 32 / KL row groups hold R rows each; Q pieces per row per step; the KL lanes' sums meet in a butterfly at the end.
// The block's 8 warps take different rows over the same K slice, so Y's pieces come from L1.
template <int S, int R, int KL, int Q>
__global__ void __launch_bounds__(256) along_k2(const float* __restrict__ X, int ldx, const float* __restrict__ Y, int ldy,
                                                float* C, int L, int K, int kps, float* work, unsigned* counters, int mode) {
    constexpr int kRowsPerWarp = 32 / KL * R, kBlockRows = 8 * kRowsPerWarp;
    __shared__ float sums[kBlockRows * S];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int kl = lane % KL, rl = lane / KL;
    const int row0 = blockIdx.x * kBlockRows + warp * kRowsPerWarp + rl;
    const int k0 = blockIdx.y * kps, k1 = min(K, k0 + kps);
    float acc[R][S] = {};
    for (int k = k0 + 4 * kl; k < k1; k += 4 * KL * Q) {
        float4 x[Q][R];
#pragma unroll
        for (int q = 0; q < Q; ++q)
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const int kq = k + 4 * KL * q;
                x[q][r] = kq < k1 ? ld_stream(X + size_t(row0 + (32 / KL) * r) * ldx + kq) : make_float4(0, 0, 0, 0);
            }
#pragma unroll
        for (int q = 0; q < Q; ++q) {
            const int kq = k + 4 * KL * q;
            if (kq >= k1) break;
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                float y[S];
                if constexpr (S % 4 == 0) {
#pragma unroll
                    for (int s = 0; s < S; s += 4) {
                        const float4 v = ld_cached(Y + size_t(kq + j) * ldy + s);
                        y[s] = v.x, y[s + 1] = v.y, y[s + 2] = v.z, y[s + 3] = v.w;
                    }
                } else {
#pragma unroll
                    for (int s = 0; s < S; ++s) y[s] = __ldg(Y + size_t(kq + j) * ldy + s);
                }
#pragma unroll
                for (int r = 0; r < R; ++r)
#pragma unroll
                    for (int s = 0; s < S; ++s) acc[r][s] = fmaf(at(x[q][r], j), y[s], acc[r][s]);
            }
        }
    }
#pragma unroll
    for (int m = 1; m < KL; m *= 2)
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int s = 0; s < S; ++s) acc[r][s] += __shfl_xor_sync(0xffffffffu, acc[r][s], m);
    if (kl == 0)
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
            for (int s = 0; s < S; ++s) sums[(warp * kRowsPerWarp + rl + (32 / KL) * r) * S + s] = acc[r][s];
    __syncthreads();
    finish(sums, kBlockRows * S, work, counters, mode,
           [&](int o, float v) { C[size_t(blockIdx.x * kBlockRows + o / S) * S + o % S] = v; });
}

template <class F>
float time_us(F f) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; ++i) f();
    std::vector<float> t;
    for (int r = 0; r < 7; ++r) {
        CK(cudaEventRecord(a));
        for (int i = 0; i < 10; ++i) f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 100.f);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[3];
}

template <class Kernel>
void launch(Kernel kernel, dim3 grid, int mode, const float* X, int ldx, const float* Y, int ldy, float* C, int L, int K,
            int kps, float* work, unsigned* counters) {
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 1, attr.val.clusterDim.y = grid.y, attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t config{grid, dim3(256), 0, nullptr, &attr, unsigned(mode == kCluster && grid.y > 1)};
    CK(cudaLaunchKernelEx(&config, kernel, X, ldx, Y, ldy, C, L, K, kps, work, counters, mode));
}

struct Data {
    float *X, *Y, *C, *work;
    unsigned* counters;
    std::vector<float> xh, yh;
};

// rel error of C (L x S, or S x L when along_l) against float64 on sampled columns
double check(const Data& d, bool along_l, int S, int L, int K, int ldc_rows) {
    std::vector<float> c(size_t(S) * L);
    CK(cudaMemcpy(c.data(), d.C, c.size() * 4, cudaMemcpyDeviceToHost));
    double err = 0, ref = 0;
    for (int l = 0; l < L; l += 37)
        for (int s = 0; s < S; ++s) {
            double r = 0;
            for (int k = 0; k < K; ++k)
                r += along_l ? double(d.yh[size_t(s) * K + k]) * d.xh[size_t(k) * L + l]
                             : double(d.xh[size_t(l) * K + k]) * d.yh[size_t(k) * S + s];
            const double got = along_l ? c[size_t(s) * L + l] : c[size_t(l) * S + s];
            err += (got - r) * (got - r), ref += r * r;
        }
    (void)ldc_rows;
    return std::sqrt(err / ref);
}

template <int S, int Q>
void sweep_l(Data& d, int L, int K, float cublas_us) {
    const double mb = 4.0 * (double(K) * L + double(S) * K + double(S) * L) / 1e6;
    printf("along L, S=%d Q=%d, %dx%dx%d (%.0f MB, cuBLAS %.1f us):", S, Q, S, L, K, mb, cublas_us);
    for (int mode : {kCounter, kCluster})
        for (int Z : {1, 2, 4, 8, 16}) {
            if (mode == kCluster && (Z == 1 || Z > 8)) continue;
            const int kps = ((K + Z - 1) / Z + 31) / 32 * 32, z = (K + kps - 1) / kps;
            CK(cudaMemset(d.C, 0xff, size_t(S) * L * 4));
            auto run = [&] { launch(along_l<S, Q>, dim3(L / 128, z), mode, d.X, L, d.Y, K, d.C, L, K, kps, d.work, d.counters); };
            run();
            CK(cudaDeviceSynchronize());
            const double e = check(d, true, S, L, K, 0);
            printf(" %s%d %.1f%s", mode == kCluster ? "c" : "z", z, time_us(run), e > 1e-5 ? "!" : "");
        }
    printf("\n");
}

template <int S, int R>
void sweep_k(Data& d, int L, int K, float cublas_us) {
    const double mb = 4.0 * (double(K) * L + double(S) * K + double(S) * L) / 1e6;
    printf("along K, S=%d R=%d, %dx%dx%d (%.0f MB, cuBLAS %.1f us):", S, R, L, S, K, mb, cublas_us);
    for (int mode : {kCounter, kCluster})
        for (int Z : {1, 2, 4, 8, 16}) {
            if (mode == kCluster && (Z == 1 || Z > 8)) continue;
            const int kps = ((K + Z - 1) / Z + 127) / 128 * 128, z = (K + kps - 1) / kps;
            CK(cudaMemset(d.C, 0xff, size_t(S) * L * 4));
            auto run = [&] { launch(along_k<S, R>, dim3(L / (32 * R), z), mode, d.X, K, d.Y, S, d.C, L, K, kps, d.work, d.counters); };
            run();
            CK(cudaDeviceSynchronize());
            const double e = check(d, false, S, L, K, 0);
            printf(" %s%d %.1f%s", mode == kCluster ? "c" : "z", z, time_us(run), e > 1e-5 ? "!" : "");
        }
    printf("\n");
}


template <int S, int R, int KL, int Q>
void sweep_k2(Data& d, int L, int K, float cublas_us) {
    const double mb = 4.0 * (double(K) * L + double(S) * K + double(S) * L) / 1e6;
    constexpr int kBlockRows = 8 * (32 / KL) * R;
    printf("along K (lanes along K), S=%d R=%d KL=%d Q=%d, %dx%dx%d (%.0f MB, cuBLAS %.1f us, %d blocks):", S, R, KL, Q, L, S, K, mb, cublas_us, L / kBlockRows);
    for (int mode : {kCounter, kCluster})
        for (int Z : {1, 2, 4, 8, 16}) {
            if (mode == kCluster && (Z == 1 || Z > 8)) continue;
            const int kps = ((K + Z - 1) / Z + 127) / 128 * 128, z = (K + kps - 1) / kps;
            CK(cudaMemset(d.C, 0xff, size_t(S) * L * 4));
            auto run = [&] { launch(along_k2<S, R, KL, Q>, dim3(L / kBlockRows, z), mode, d.X, K, d.Y, S, d.C, L, K, kps, d.work, d.counters); };
            run();
            CK(cudaDeviceSynchronize());
            const double e = check(d, false, S, L, K, 0);
            printf(" %s%d %.1f%s", mode == kCluster ? "c" : "z", z, time_us(run), e > 1e-5 ? "!" : "");
        }
    printf("\n");
}

int main() {
    Data d;
    const size_t big = size_t(64) << 20;  // floats: up to 256 MB of X
    d.xh.resize(big);
    d.yh.resize(size_t(32) << 20);
    srand(7);
    for (auto& v : d.xh) v = rand() / float(RAND_MAX) * 2 - 1;
    for (auto& v : d.yh) v = rand() / float(RAND_MAX) * 2 - 1;
    CK(cudaMalloc(&d.X, big * 4)); CK(cudaMalloc(&d.Y, d.yh.size() * 4)); CK(cudaMalloc(&d.C, size_t(64) << 20));
    CK(cudaMalloc(&d.work, size_t(256) << 20)); CK(cudaMalloc(&d.counters, 1 << 20)); CK(cudaMemset(d.counters, 0, 1 << 20));
    CK(cudaMemcpy(d.X, d.xh.data(), big * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d.Y, d.yh.data(), d.yh.size() * 4, cudaMemcpyHostToDevice));
    // cuBLAS figures of the grid run (us), for reference: 1x4096x4096 18.7, 8x4096x4096 43.6, 4096x16x4096 44.5
    sweep_l<1, 4>(d, 4096, 4096, 18.7f);
    sweep_k2<1, 4, 32, 2>(d, 4096, 4096, 0);
    sweep_k2<1, 2, 32, 4>(d, 4096, 4096, 0);
    sweep_k2<1, 4, 8, 2>(d, 4096, 4096, 0);
    sweep_k2<1, 2, 4, 4>(d, 4096, 4096, 0);
    sweep_k2<4, 4, 32, 2>(d, 4096, 4096, 0);
    sweep_k2<4, 2, 8, 2>(d, 4096, 4096, 0);
    sweep_k2<4, 2, 4, 2>(d, 4096, 4096, 0);
    sweep_k2<8, 2, 32, 2>(d, 4096, 4096, 0);
    sweep_k2<8, 2, 8, 2>(d, 4096, 4096, 0);
    sweep_k2<8, 2, 4, 2>(d, 7040, 3000, 55.3f);
    sweep_k2<8, 2, 8, 2>(d, 7040, 3000, 55.3f);
    sweep_k2<8, 2, 32, 2>(d, 7040, 3000, 55.3f);
    sweep_k2<16, 2, 32, 1>(d, 4096, 4096, 44.5f);
    sweep_k2<16, 2, 8, 1>(d, 4096, 4096, 44.5f);
    sweep_k2<16, 1, 4, 2>(d, 4096, 4096, 44.5f);
    sweep_k2<16, 2, 4, 1>(d, 4096, 4096, 44.5f);
    sweep_k2<32, 1, 8, 1>(d, 9216, 2000, 84.5f);
    sweep_k2<32, 1, 4, 1>(d, 9216, 2000, 84.5f);
    return 0;
}
