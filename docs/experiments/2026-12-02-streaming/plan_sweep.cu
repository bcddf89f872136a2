// The skinny kernel's launch shapes, timed one by one: for each product, every width of a block along L (lane quads,
// for X along L) by every count of K slices that a cluster sums (1 to 8), beside the plan's own choice through the
// kernel's launcher. Includes skinny.cu to reach its launch_kernel; links the library's other
// objects.
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 -Icuda -o plan_sweep docs/experiments/2026-12-02-streaming/plan_sweep.cu \
//       $(ls build/core/*.o build/core/*/*.o build/kernels/*.o | grep -v skinny) -ldl
// Run: ./plan_sweep (no arguments).
#include "kernels/skinny.cu"
#include "matmul.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

template <class F>
float time_us(F f) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; ++i) f();
    std::vector<float> t;
    for (int r = 0; r < 7; ++r) {
        CK(cudaEventRecord(a));
        for (int i = 0; i < 10; ++i) f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 100.f);
    }
    std::sort(t.begin(), t.end());
    return t[3];
}

int main(int argc, char** argv) {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int shapes[][3] = {{1, 4096, 4096}, {3, 11008, 4096}, {8, 4096, 4096}, {1, 1500, 9000}, {6, 14336, 2500},
                             {4, 4096, 4096}, {2, 8192, 8192}, {4096, 4, 4096}, {4096, 1, 4096}, {7000, 3, 3000},
                             {8, 8, 500000}, {1, 1, 1000000}, {16, 4096, 4096}, {32, 4096, 4096}, {4096, 16, 4096},
                             {7000, 5, 3000}, {16, 16, 500000}, {32, 32, 300000}};
    for (const auto& s : shapes) {
        const int M = s[0], N = s[1], K = s[2];
        std::vector<float> host(size_t(M) * K + size_t(K) * N);
        srand(M + N + K);
        for (float& v : host) v = rand() / float(RAND_MAX) * 2 - 1;
        float *A, *B, *C, *R;
        CK(cudaMalloc(&A, sizeof(float) * M * K));
        CK(cudaMalloc(&B, sizeof(float) * K * N));
        CK(cudaMalloc(&C, sizeof(float) * M * N));
        CK(cudaMalloc(&R, sizeof(float) * M * N));
        CK(cudaMemcpy(A, host.data(), sizeof(float) * M * K, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(B, host.data() + size_t(M) * K, sizeof(float) * K * N, cudaMemcpyHostToDevice));
        GemmArgs g{};
        g.M = M, g.N = N, g.K = K, g.A = A, g.lda = K, g.B = B, g.ldb = N, g.C = R, g.ldc = N;
        const double mb = 4.0 * (double(M) * K + double(K) * N + double(M) * N) / 1e6;
        // The reference: the launcher's own plan.
        if (launch_skinny(g, nullptr) != MM_OK) { printf("launch failed: %s\n", mm_last_error()); return 1; }
        const Plan own = plan(g, sms);
        const float own_us = time_us([&] { launch_skinny(g, nullptr); });
        printf("%dx%dx%d: plan lane_quads %d blocks %lld splits %d%s: %.1f us\n", M, N, K, own.lane_quads,
               (long long)own.column_blocks, own.splits, own.cluster ? " (cluster)" : "", own_us);
        std::vector<float> ref(size_t(M) * N), got(size_t(M) * N);
        CK(cudaMemcpy(ref.data(), R, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
        g.C = C;
        const bool along_l = own.x == XRows::kAlongL;
        for (int width = along_l ? 2 : 32; width <= 32; width *= 2) {
            Plan p = own;
            p.lane_quads = width;
            p.column_blocks = column_blocks(p, width);
            printf("  lane_quads %2d (%5lld blocks):", width, (long long)p.column_blocks);
            for (int splits : {1, 2, 3, 4, 6, 8}) {
                const int kps = int((int64_t(K) + 4 * splits - 1) / (4 * splits) * 4);
                CK(cudaMemset(C, 0xff, sizeof(float) * M * N));
                const auto run = [&] { return launch_kernel(g, p, splits, kps, {C, g.ldc, 0}, splits > 1, nullptr); };
                if (run() != MM_OK) { printf(" fail(%s)", mm_last_error()); continue; }
                CK(cudaMemcpy(got.data(), C, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
                double err = 0, norm = 0;
                for (size_t i = 0; i < got.size(); ++i) err += (got[i] - ref[i]) * double(got[i] - ref[i]), norm += ref[i] * double(ref[i]);
                const float us = time_us(run);
                printf(" %d:%6.1f%s", splits, us, err > 1e-10 * norm ? "!" : "");
            }
            printf("\n");
        }
        CK(cudaFree(A)); CK(cudaFree(B)); CK(cudaFree(C)); CK(cudaFree(R));
    }
    return 0;
}
