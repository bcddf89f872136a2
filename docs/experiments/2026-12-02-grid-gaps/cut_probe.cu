// best's ragged-edge rule on the shapes of peel_probe and the grid's ragged class: the configuration it chooses,
// whether it cuts, and the model's saved and edge microseconds (kernels/best.cu, included here).
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 --default-stream per-thread -Icuda -o docs/experiments/2026-12-02-grid-gaps/cut_probe \
//       docs/experiments/2026-12-02-grid-gaps/cut_probe.cu $(ls build/core/*.o build/core/*/*.o build/kernels/*.o | grep -v best.o) -ldl
// Run: ./cut_probe (no arguments).
#include "kernels/best.cu"

#include <cstdio>

int main() {
    int sms = 0;
    if (gemm::sm_count(&sms) != MM_OK) return 1;
    struct Shape { int M, N, K; };
    const Shape shapes[] = {
        {8193, 129, 1000}, {385, 769, 1537}, {257, 3072, 1024}, {3001, 257, 5003}, {1153, 1153, 1153},
        {129, 4097, 2000}, {4097, 4097, 4097}, {2049, 2047, 999}, {6145, 3073, 515}, {4225, 193, 2000},
        {2561, 1025, 3001}, {641, 1537, 2049}, {7169, 257, 1500}, {1537, 1537, 777}, {5003, 701, 1199},
        {3073, 3073, 3073}, {2305, 4609, 1000},
    };
    float* base = nullptr;
    if (cudaMalloc(&base, 1 << 20) != cudaSuccess) return 1;
    for (const Shape& s : shapes) {
        GemmArgs g{};
        g.M = s.M, g.N = s.N, g.K = s.K, g.A = base, g.B = base, g.C = base;
        g.lda = padded_ld(s.K), g.ldb = g.ldc = padded_ld(s.N);
        Choice c{};
        if (choose(g, sms, &c) != MM_OK) return 1;
        Cut cut{};
        const bool cuts = ragged_cut(g, c, sms, &cut);
        printf("%5dx%5dx%5d %-26s s%-3d", s.M, s.N, s.K, c.config->name, c.splits);
        if (cuts) {
            double edges = 0;
            for (int i = 0; i < cut.edge_count; ++i) edges += edge_us(cut.edges[i]);
            const double saved = (busiest_sm_fmas(g, c, sms) - busiest_sm_fmas(cut.bulk, cut.bulk_choice, sms)) /
                                 kTileFmasPerSmPerUs;
            printf(" cut: bulk %dx%d %s s%d, %d edges; saved %.1f us, edges %.1f us", cut.bulk.M, cut.bulk.N,
                   cut.bulk_choice.config->name, cut.bulk_choice.splits, cut.edge_count, saved, edges);
        }
        printf("\n");
    }
    return 0;
}
