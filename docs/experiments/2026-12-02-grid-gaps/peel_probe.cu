// Where best is below cuBLAS on a mid-size product: is there a configuration (or split count) of best's catalogue
// that is faster on the whole product, and does cutting off a ragged edge help, that is, the tiles on the largest
// part of C that whole 128-tiles cover, and the edge's few rows or columns as their own products (best on each)?
// The operands' rows are padded to 16 bytes (the layout the library gives its own device copies, and so the shape
// grid's: PADDED 1) or as dense as the shape (PADDED 0). best's and the peeled product's results are checked against
// cuBLAS's (the forced configurations' are not). Shapes: those of the grid below 0.95x cuBLAS or ragged, and others
// of the same kinds that no table was tuned to.
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 --default-stream per-thread -Icuda -o docs/experiments/2026-12-02-grid-gaps/peel_probe \
//       docs/experiments/2026-12-02-grid-gaps/peel_probe.cu build/core/layout/rearrange.o build/core/device_buffer.o \
//       build/core/launch.o build/core/status.o -Lmatmul_opt -lmatmul -Xlinker -rpath,'$ORIGIN/../../../matmul_opt'
// Run: ./peel_probe PADDED (0 or 1). Columns: us of cuBLAS; of best, once with C copied out (checked) and alone;
// of best on the peeled product, likewise; of the peeled product
// with the bulk's fastest configuration (name/splits).
#include <string>

#include "core/layout/rearrange.h"

#include "probe_calls.h"

// The part of g (op N·N) of rows [r0, r1) and columns [c0, c1) of C.
static GemmArgs part(const GemmArgs& g, int r0, int r1, int c0, int c1) {
    GemmArgs p = g;
    p.M = r1 - r0, p.N = c1 - c0;
    p.A = g.A + int64_t(r0) * g.lda;
    p.B = g.B + c0;
    p.C = g.C + int64_t(r0) * g.ldc + c0;
    return p;
}

// The sub-products of g cut at whole 128-tiles where the edge is at most `edge` rows or columns: the bulk first.
static std::vector<GemmArgs> peeled(const GemmArgs& g, int edge) {
    const int m = g.M % 128 <= edge && g.M > 128 ? g.M - g.M % 128 : g.M;
    const int n = g.N % 128 <= edge && g.N > 128 ? g.N - g.N % 128 : g.N;
    std::vector<GemmArgs> parts{part(g, 0, m, 0, n)};
    if (m < g.M) parts.push_back(part(g, m, g.M, 0, g.N));
    if (n < g.N) parts.push_back(part(g, 0, m, n, g.N));
    return parts;
}

int main(int argc, char** argv) {
    const bool pad = argc > 1 && argv[1][0] == '1';
    struct Shape { int M, N, K; };
    const Shape shapes[] = {
        // the grid's ragged shapes and its shapes below 0.95x cuBLAS with an edge of at most 16
        {8193, 129, 1000}, {385, 769, 1537}, {257, 3072, 1024}, {3001, 257, 5003}, {1153, 1153, 1153},
        {129, 4097, 2000}, {4097, 4097, 4097}, {2049, 2047, 999}, {6145, 3073, 515},
        // others of the same kinds
        {4225, 193, 2000}, {2561, 1025, 3001}, {641, 1537, 2049}, {7169, 257, 1500}, {1537, 1537, 777},
        {5003, 701, 1199}, {3073, 3073, 3073}, {2305, 4609, 1000},
    };
    const int configs = mm_best_config_count();
    printf("padded rows: %s\n", pad ? "yes" : "no");
    printf("shape              cublas  best+out    best  peel+out    peel  peel with the bulk's fastest\n");
    for (const Shape& s : shapes) {
        Product p(s.M, s.N, s.K, false, 7);
        GemmArgs g = p.g;
        float *ap = nullptr, *bp = nullptr, *cp = nullptr;
        if (pad) {
            g.lda = padded_ld(s.K), g.ldb = g.ldc = padded_ld(s.N);
            CK(cudaMalloc(&ap, sizeof(float) * s.M * g.lda));
            CK(cudaMalloc(&bp, sizeof(float) * s.K * g.ldb));
            CK(cudaMalloc(&cp, sizeof(float) * s.M * g.ldc));
            must(gemm::launch_gather(p.A, s.M, s.K, s.K, 1, ap, g.lda, nullptr));
            must(gemm::launch_gather(p.B, s.K, s.N, s.N, 1, bp, g.ldb, nullptr));
            g.A = ap, g.B = bp, g.C = cp;
        }
        // f, then C copied to the probe's dense C for the check
        const auto checked = [&](auto f) {
            return [&, f] {
                f();
                if (pad) must(gemm::launch_scale_add(cp, g.ldc, 1.f, 0.f, p.C, s.N, s.M, s.N, nullptr));
            };
        };
        const auto best = [&] { must(launch_named("best", g)); };
        const std::vector<GemmArgs> parts = peeled(g, 16);
        const auto peel = [&] { for (const GemmArgs& q : parts) must(launch_named("best", q)); };
        printf("%5dx%5dx%5d %8.2f", s.M, s.N, s.K, p.cublas_us);
        print_checked_us(p, checked(best), 1);
        printf(" %8.2f", time_us(best, 7));
        print_checked_us(p, checked(peel), 1);
        printf(" %8.2f", time_us(peel, 7));
        float bulk_least = 1e30f;
        std::string bulk_name;
        for (int c = 0; c < configs; ++c)
            for (int splits : {0, 1, 2, 3, 4, 6, 8}) {
                if (mm_best_force(c, splits) != MM_OK) continue;
                const mm_status st = launch_named("best", parts[0]);
                mm_best_force(-1, 1);
                if (st != MM_OK) { cudaGetLastError(); continue; }
                CK(cudaDeviceSynchronize());
                std::vector<GemmArgs> rest(parts.begin() + 1, parts.end());
                const float us = time_us([&] {
                    must(mm_best_force(c, splits));
                    must(launch_named("best", parts[0]));
                    must(mm_best_force(-1, 1));
                    for (const GemmArgs& q : rest) must(launch_named("best", q));
                }, 5);
                const char* cname = nullptr;
                mm_best_config_name(c, &cname);
                if (us < bulk_least) bulk_least = us, bulk_name = std::string(cname) + "/" + std::to_string(splits);
            }
        printf(" %8.2f %s\n", bulk_least, bulk_name.c_str());
        fflush(stdout);
        for (float* b : {ap, bp, cp}) cudaFree(b);
    }
    return 0;
}
