// The shortk kernel's grid along strips: one block per strip of 128 rows (the launcher's plan) against blocks that
// each take several strips in turn (keeping their columns of op(B) in registers across them), sized to 1, 2 or 4
// waves of 2 blocks per SM; beside cuBLAS and best, each result checked against cuBLAS's.
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 --default-stream per-thread -Icuda -o docs/experiments/2026-12-02-short-k/grid_sweep \
//       docs/experiments/2026-12-02-short-k/grid_sweep.cu build/core/launch.o build/core/status.o \
//       -Lmatmul_opt -lmatmul -Xlinker -rpath,'$ORIGIN/../../../matmul_opt'
// Run: ./grid_sweep (no arguments).
#include "kernels/shortk.cu"

#include "../2026-12-02-staged-skinny/probe_common.h"

const gemm::ConfigDesc pipelined::k64x128x16{};  // shortk's fallback, which this probe never runs

static mm_status launch_named(const char* kernel, const GemmArgs& g) {
    return mm_gemm_async(kernel, g.op_a, g.op_b, g.M, g.N, g.K, 1.f, g.A, g.lda, g.B, g.ldb, 0.f, g.C, g.ldc, nullptr);
}
mm_status launch_cublas(const GemmArgs& g, cudaStream_t) { return launch_named("cublas", g); }

template <int kK>
void launch_strips(const GemmArgs& g, unsigned blocks_y) {
    shortk_kernel<kK, true><<<dim3(tiles_of(g.N, kPanelColumns), blocks_y), kThreads>>>(g);
}

template <int kK>
void row(const GemmArgs& g, Product& p, int sms) {
    const unsigned panels = tiles_of(g.N, kPanelColumns), strips = tiles_of(g.M, kStripRows);
    const auto run = [&](auto f) { print_checked_us(p, f); };
    run([&] { launch_named("best", g); });
    run([&] { launch_strips<kK>(g, strips); });
    for (int waves : {1, 2, 4}) {
        unsigned y = (unsigned(waves * 2 * sms) + panels - 1) / panels;
        run([&] { launch_strips<kK>(g, y < strips ? y : strips); });
    }
}

int main() {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    struct Shape { int M, N, K; };
    printf("shape               cublas     best  a strip each  1 wave   2 waves  4 waves  (us; ! = differs from cuBLAS)\n");
    for (Shape s : {Shape{4096, 4096, 16}, {5000, 3000, 1}, {7777, 4444, 8}, {4096, 4096, 4}, {3072, 3072, 16},
                    {6144, 6144, 8}, {16384, 16384, 2}, {1000, 20000, 12}, {20000, 1000, 12}}) {
        Product p(s.M, s.N, s.K, false, 9);
        printf("%5dx%5dx%4d %8.2f", s.M, s.N, s.K, p.cublas_us);
        if (s.K <= 1) row<1>(p.g, p, sms);
        else if (s.K <= 2) row<2>(p.g, p, sms);
        else if (s.K <= 4) row<4>(p.g, p, sms);
        else if (s.K <= 8) row<8>(p.g, p, sms);
        else row<16>(p.g, p, sms);
        printf("   floor %.2f\n", 4.0 * (double(s.M) * s.K + double(s.K) * s.N + double(s.M) * s.N) / 4.48e6);
    }
}
