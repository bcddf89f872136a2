// What the probes of this record share: a CUDA check that exits with the failing line, the timing of a launch, and a
// product of random operands with cuBLAS's result as its reference.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "core/problem.h"
#include "matmul.h"

mm_status launch_cublas(const GemmArgs& g, cudaStream_t stream);

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

// Microseconds per call of f: 3 calls of warm-up, then the median of `rounds` rounds of 10 back-to-back calls.
template <class F>
float time_us(F f, int rounds) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; ++i) f();
    std::vector<float> t;
    for (int r = 0; r < rounds; ++r) {
        CK(cudaEventRecord(a));
        for (int i = 0; i < 10; ++i) f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms * 100.f);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[rounds / 2];
}

// C = A·B (B stored N x K where b_t) on random operands in [-1, 1] on the GPU: cuBLAS's product, timed over `rounds`,
// is the reference; g writes to C, which the probe's launches fill and matches() checks.
struct Product {
    GemmArgs g{};
    float *A = nullptr, *B = nullptr, *C = nullptr, *R = nullptr;
    std::vector<float> reference;
    float cublas_us = 0;

    Product(int M, int N, int K, bool b_t, int rounds) : reference(size_t(M) * N) {
        std::vector<float> host(size_t(M) * K + size_t(K) * N);
        srand(M + N + K);
        for (float& v : host) v = rand() / float(RAND_MAX) * 2 - 1;
        CK(cudaMalloc(&A, sizeof(float) * M * K));
        CK(cudaMalloc(&B, sizeof(float) * K * N));
        CK(cudaMalloc(&C, sizeof(float) * M * N));
        CK(cudaMalloc(&R, sizeof(float) * M * N));
        CK(cudaMemcpy(A, host.data(), sizeof(float) * M * K, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(B, host.data() + size_t(M) * K, sizeof(float) * K * N, cudaMemcpyHostToDevice));
        g.M = M, g.N = N, g.K = K, g.A = A, g.lda = K, g.B = B, g.ldb = b_t ? K : N, g.C = R, g.ldc = N;
        g.op_b = b_t ? MM_OP_T : MM_OP_N;
        if (launch_cublas(g, nullptr) != MM_OK) {
            printf("cublas failed: %s\n", mm_last_error());
            exit(1);
        }
        cublas_us = time_us([&] { launch_cublas(g, nullptr); }, rounds);
        CK(cudaMemcpy(reference.data(), R, sizeof(float) * reference.size(), cudaMemcpyDeviceToHost));
        g.C = C;
    }
    Product(const Product&) = delete;
    Product& operator=(const Product&) = delete;
    ~Product() {
        for (float* p : {A, B, C, R}) cudaFree(p);
    }

    // C poisoned (all bits set), for the next launch to overwrite.
    void poison() { CK(cudaMemset(C, 0xff, sizeof(float) * reference.size())); }

    // Whether C is cuBLAS's product to a relative Frobenius error of 1e-5.
    bool matches() const {
        std::vector<float> got(reference.size());
        CK(cudaMemcpy(got.data(), C, sizeof(float) * got.size(), cudaMemcpyDeviceToHost));
        double err = 0, norm = 0;
        for (size_t i = 0; i < got.size(); ++i) {
            const double d = double(got[i]) - reference[i];
            err += d * d, norm += double(reference[i]) * reference[i];
        }
        return std::sqrt(err) <= 1e-5 * std::sqrt(norm);
    }
};

// One checked launch of f into poisoned C, then its time: prints " us" and "!" where C differs from cuBLAS's.
template <class F>
void print_checked_us(Product& p, F f, int rounds = 9) {
    p.poison();
    f();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    const char* ok = p.matches() ? " " : "!";
    printf(" %8.2f%s", time_us(f, rounds), ok);
}
