// The skinny kernel with X along K: its register mainloop against its staged one (shared memory, lanes along L), on
// the same plan rules, beside cuBLAS; each result checked against cuBLAS's. Includes skinny.cu to reach its plan
// and launcher; links the library's other objects.
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 -Icuda -o staged_sweep docs/experiments/2026-12-02-staged-skinny/staged_sweep.cu \
//       $(ls build/core/*.o build/core/*/*.o build/kernels/*.o build/api/*.o | grep -v skinny) -ldl
// Run: ./staged_sweep (no arguments).
#include "kernels/skinny.cu"
#include "probe_common.h"

#include <vector>

int main() {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    struct Shape { int M, N, K; bool b_t; };
    std::vector<Shape> shapes;
    for (int s : {1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32}) shapes.push_back({4096, s, 4096, false});
    for (Shape s : {Shape{7000, 5, 3000, false}, {7000, 3, 3000, false}, {9000, 24, 2000, false}, {8192, 32, 8192, false},
                    {16384, 16, 1024, false}, {2000, 8, 60000, false}, {16, 4096, 4096, true}, {32, 14336, 2500, true},
                    {5, 11008, 4096, true}, {300, 30, 100000, false}})
        shapes.push_back(s);
    printf("shape            op   cublas_us | own: kind     us   | register us | staged us   (! = differs from cuBLAS)\n");
    for (const Shape& s : shapes) {
        const int M = s.M, N = s.N, K = s.K;
        Product product(M, N, K, s.b_t, 9);
        GemmArgs& g = product.g;
        const float cublas_us = product.cublas_us;
        const auto check = [&] { return product.matches() ? " " : "!"; };
        product.poison();
        if (launch_skinny(g, nullptr) != MM_OK) { printf("skinny failed: %s\n", mm_last_error()); return 1; }
        const char* own_ok = check();
        const float own_us = time_us([&] { launch_skinny(g, nullptr); }, 9);
        const Plan own = plan(g, sms);
        printf("%5dx%5dx%6d %s %9.1f | %-8s %7.1f%s |", M, N, K, s.b_t ? "N.T" : "N.N", cublas_us,
               !skinny::takes(g) ? "fallback" : own.x == XRows::kAlongL ? "along-l" : own.staged ? "staged" : "register",
               own_us, own_ok);
        for (bool staged : {false, true}) {
            Plan p = layout(g);
            const bool legal = p.x == XRows::kAlongK && (staged || (p.S <= 16 && rows_aligned16(g.B, g.ldb)));
            if (!legal) { printf("       -    |"); continue; }
            p.staged = staged;
            p = planned(p, g, sms);
            if (p.splits > 1 && !p.cluster) { printf("  split-K   |"); continue; }
            const int kps = int((int64_t(K) + 4 * p.splits - 1) / (4 * p.splits) * 4);
            const auto run = [&] { return launch_kernel(g, p, p.splits, kps, {g.C, g.ldc, 0}, p.splits > 1, nullptr); };
            product.poison();
            if (run() != MM_OK) { printf(" fail(%s) |", mm_last_error()); continue; }
            const char* ok = check();
            printf(" %7.1f%s b%lld z%d |", time_us(run, 9), ok, (long long)p.column_blocks * p.s_groups, p.splits);
        }
        printf("\n");
    }
    return 0;
}
