// A short K (a rank-k update) is bound by writing C: how fast the H200 writes a large C (a fill kernel, cudaMemset),
// and how close a kernel that holds all of K for a tile in shared memory and streams C out in 512-byte rows comes to
// it, beside cuBLAS and best. Each product is checked against cuBLAS's.
// Build (from the repository root, after make; cuBLAS and best through the library's C API):
//   nvcc -std=c++20 -O3 -arch=sm_90 -Icuda -o docs/experiments/2026-12-02-short-k/probe \
//       docs/experiments/2026-12-02-short-k/probe.cu --default-stream per-thread -Lmatmul_opt -lmatmul -Xlinker -rpath,'$ORIGIN/../../../matmul_opt'
// Run: ./probe (no arguments).
#include "../2026-12-02-staged-skinny/probe_common.h"

static mm_status launch_named(const char* kernel, const GemmArgs& g) {
    return mm_gemm_async(kernel, g.op_a, g.op_b, g.M, g.N, g.K, 1.f, g.A, g.lda, g.B, g.ldb, 0.f, g.C, g.ldc, nullptr);
}
mm_status launch_cublas(const GemmArgs& g, cudaStream_t) { return launch_named("cublas", g); }
static mm_status launch_best(const GemmArgs& g, cudaStream_t) { return launch_named("best", g); }

__global__ void fill(float4* c, size_t count) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
        c[i] = make_float4(1.f, 2.f, 3.f, 4.f);
}

// C tile kBm x 128 per block of 256 threads: warp w owns rows w*kTm .. +kTm, lane l columns 4l .. 4l+3, so a warp
// stores kTm rows of 512 contiguous bytes. K goes through shared memory in chunks of kKc (A transposed there).
constexpr int kBn = 128, kKc = 32;
template <int kTm, bool kStream, int kMinBlocks>
__global__ void __launch_bounds__(256, kMinBlocks) short_k(GemmMatrices g) {
    constexpr int kBm = 8 * kTm;
    __shared__ __align__(16) float As[kKc][kBm];
    __shared__ __align__(16) float Bs[kKc][kBn];
    const int m0 = blockIdx.y * kBm, n0 = blockIdx.x * kBn;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float acc[kTm][4] = {};
    for (int k0 = 0; k0 < g.K; k0 += kKc) {
        for (int i = threadIdx.x; i < kKc * kBm; i += 256) {
            const int m = i % kBm, k = i / kBm;
            As[k][m] = (m0 + m < g.M && k0 + k < g.K) ? g.A[(m0 + m) * g.lda + k0 + k] : 0.f;
        }
        for (int i = threadIdx.x; i < kKc * kBn; i += 256) {
            const int n = i % kBn, k = i / kBn;
            Bs[k][n] = (n0 + n < g.N && k0 + k < g.K) ? g.B[(k0 + k) * g.ldb + n0 + n] : 0.f;
        }
        __syncthreads();
        const int steps = min(kKc, g.K - k0);
        for (int k = 0; k < steps; ++k) {
            float a[kTm];
#pragma unroll
            for (int i = 0; i < kTm; i += 4) *reinterpret_cast<float4*>(&a[i]) = *reinterpret_cast<const float4*>(&As[k][warp * kTm + i]);
            const float4 b = *reinterpret_cast<const float4*>(&Bs[k][lane * 4]);
#pragma unroll
            for (int i = 0; i < kTm; ++i) {
                acc[i][0] = fmaf(a[i], b.x, acc[i][0]);
                acc[i][1] = fmaf(a[i], b.y, acc[i][1]);
                acc[i][2] = fmaf(a[i], b.z, acc[i][2]);
                acc[i][3] = fmaf(a[i], b.w, acc[i][3]);
            }
        }
        __syncthreads();
    }
    const int n = n0 + lane * 4;
#pragma unroll
    for (int i = 0; i < kTm; ++i) {
        const int m = m0 + warp * kTm + i;
        if (m >= g.M) break;
        float* row = g.C + m * g.ldc;
        if (n + 3 < g.N) {
            const float4 v = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
            if (kStream) __stcs(reinterpret_cast<float4*>(row + n), v);
            else *reinterpret_cast<float4*>(row + n) = v;
        } else {
            for (int j = 0; j < 4 && n + j < g.N; ++j) row[n + j] = acc[i][j];
        }
    }
}

template <int kTm, bool kStream, int kMinBlocks>
void launch(const GemmArgs& g) {
    const dim3 grid((g.N + kBn - 1) / kBn, (g.M + 8 * kTm - 1) / (8 * kTm));
    short_k<kTm, kStream, kMinBlocks><<<grid, 256>>>(g);
}

int main() {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("writes: fill kernel (float4, grid-stride) at blocks per SM, and cudaMemsetAsync; us and TB/s\n");
    for (size_t bytes : {size_t(60000000), size_t(64) << 20, size_t(138180000), size_t(144000000), size_t(1) << 31}) {
        float* c;
        CK(cudaMalloc(&c, bytes));
        printf("%11zu bytes:", bytes);
        for (int per_sm : {2, 4, 8, 16}) {
            const float us = time_us([&] { fill<<<sms * per_sm, 256>>>(reinterpret_cast<float4*>(c), bytes / 16); }, 9);
            printf("  %2d/SM %8.2f (%.2f)", per_sm, us, bytes / us / 1e6);
        }
        const float us = time_us([&] { CK(cudaMemsetAsync(c, 0, bytes)); }, 9);
        printf("  memset %8.2f (%.2f)\n", us, bytes / us / 1e6);
        CK(cudaFree(c));
    }
    struct Shape { int M, N, K; };
    std::vector<Shape> shapes = {{4096, 4096, 16}, {5000, 3000, 1}, {7777, 4444, 8}, {6000, 6000, 33},
                                 {3000, 7000, 64}, {10000, 2000, 100}, {12000, 1500, 77}, {2048, 12000, 128}};
    for (int k : {1, 2, 4, 8, 32, 64, 128, 256}) shapes.push_back({4096, 4096, k});
    for (int k : {4, 16, 64}) shapes.push_back({16384, 16384, k});
    printf("\nshape               cublas     best   tm8      tm8cs    tm16     tm16cs   (us; ! = differs from cuBLAS)\n");
    for (const Shape& s : shapes) {
        Product p(s.M, s.N, s.K, false, 9);
        const GemmArgs& g = p.g;
        const auto run = [&](auto f) { print_checked_us(p, f); };
        printf("%5dx%5dx%4d %8.2f", s.M, s.N, s.K, p.cublas_us);
        run([&] { launch_best(g, nullptr); });
        run([&] { launch<8, false, 3>(g); });
        run([&] { launch<8, true, 3>(g); });
        run([&] { launch<16, false, 2>(g); });
        run([&] { launch<16, true, 2>(g); });
        printf("   floor %.2f\n", 4.0 * (double(s.M) * s.K + double(s.K) * s.N + double(s.M) * s.N) / 4.48e6);
    }
}
