// The staged mainloop's shapes (rows of X per lane, k per tile, stages) by the count of K slices its cluster sums,
// every row of Y (up to 32) in one group,
// beside cuBLAS, with the clusters that fit on the GPU at once (cudaOccupancyMaxActiveClusters); each result checked
// against cuBLAS's. Includes skinny.cu to reach its plan and view; links the library's other objects.
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 -Icuda -o staged_variants docs/experiments/2026-12-02-staged-skinny/staged_variants.cu \
//       $(ls build/core/*.o build/core/*/*.o build/kernels/*.o build/api/*.o | grep -v skinny) -ldl
// Run: ./staged_variants (no arguments).
#include "kernels/skinny.cu"
#include "probe_common.h"

#include <algorithm>
#include <type_traits>

// Variant v of rows kRows: {rows of X per lane, k per tile, stages}.
template <int kRows, int kV>
using Variant = std::conditional_t<
    kV == 0, StagedShape<kRows, (kRows >= 32 ? 2 : 4), 32, 4>,
    std::conditional_t<kV == 1, StagedShape<kRows, (kRows >= 32 ? 2 : 4), 64, 3>,
                       std::conditional_t<kV == 2, StagedShape<kRows, (kRows >= 32 ? 2 : 4), 32, 5>,
                                          std::conditional_t<kV == 3, StagedShape<kRows, 2, 32, 4>, StagedShape<kRows, 2, 64, 4>>>>>;
constexpr int kVariants = 5;

struct Run {
    float us;
    int fit;  // clusters that fit at once
    bool ok;
};

template <class Shape, YRows kY>
Run run_variant(Product& product, Plan p, int splits) {
    const GemmArgs& g = product.g;
    constexpr auto kernel = skinny_staged_along_k<Shape, kY, true>;
    p.column_blocks = (p.L - 1) / Shape::kBlockRows + 1;
    p.s_groups = 1;
    const int kps = int((int64_t(g.K) + 4 * splits - 1) / (4 * splits) * 4);
    const SkinnyView v = view_of(g, p, kps, {g.C, g.ldc, 0}, splits > 1);
    if (gemm::allow_shared_memory<kernel>(Shape::kSmemBytes, "variant") != MM_OK) return {0, 0, false};
    const dim3 grid(unsigned(p.column_blocks), 1, unsigned(splits));
    cudaLaunchAttribute cluster{};
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = 1, cluster.val.clusterDim.y = 1, cluster.val.clusterDim.z = splits;
    cudaLaunchConfig_t config{grid, dim3(kThreads), size_t(Shape::kSmemBytes), nullptr, &cluster, 1};
    int fit = 0;
    if (splits > 1) CK(cudaOccupancyMaxActiveClusters(&fit, kernel, &config));
    const auto run = [&] { return gemm::launch_in_clusters(splits > 1 ? splits : 1, kernel, grid, kThreads, Shape::kSmemBytes, nullptr, "variant", v); };
    product.poison();
    if (run() != MM_OK) { printf("fail: %s\n", mm_last_error()); return {0, fit, false}; }
    const bool ok = product.matches();
    return {time_us(run, 7), fit, ok};
}

template <int kRows, YRows kY, int kV = 0>
void sweep(Product& product, const Plan& p) {
    const GemmArgs& g = product.g;
    using Shape = Variant<kRows, kV>;
    printf("  TL %d BK %d stages %d (%3lld blocks, %3d KB):", Shape::kRowsPerLane, Shape::kTileK, Shape::kStages,
           (long long)((p.L - 1) / Shape::kBlockRows + 1), Shape::kSmemBytes / 1024);
    for (int splits : {1, 2, 4, 8}) {
        if (int64_t(g.K) / splits < 256) continue;
        const Run r = run_variant<Shape, kY>(product, p, splits);
        printf("  z%d %6.1f%s (fit %d)", splits, r.us, r.ok ? " " : "!", r.fit);
    }
    printf("\n");
    if constexpr (kV + 1 < kVariants) sweep<kRows, kY, kV + 1>(product, p);
}

int main() {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    struct Shape { int M, N, K; bool b_t; };
    const Shape shapes[] = {{4096, 4, 4096, false},  {4096, 8, 4096, false},  {4096, 16, 4096, false},
                            {4096, 32, 4096, false}, {7000, 5, 3000, false},  {16384, 16, 1024, false},
                            {8192, 32, 8192, false}, {16, 4096, 4096, true},  {9000, 24, 2000, false}};
    for (const Shape& s : shapes) {
        const int M = s.M, N = s.N, K = s.K;
        Product product(M, N, K, s.b_t, 7);
        const GemmArgs& g = product.g;
        const float cublas_us = product.cublas_us;
        Plan p = layout(g);
        p.staged = true;
        p = planned(p, g, sms);
        const float own_us = time_us([&] { launch_skinny(g, nullptr); }, 7);
        printf("%dx%dx%d %s: cublas %.1f us, skinny as planned %.1f us (%lld blocks, z%d)\n", M, N, K, s.b_t ? "N.T" : "N.N",
               cublas_us, own_us, (long long)p.column_blocks, p.splits);
        p.rows = std::max(4, ceil_pow2(p.S));  // one group of every row of Y, up to 32
        const auto by_rows = [&](auto y) {
            constexpr YRows kY = decltype(y)::value;
            if (p.rows <= 4) return sweep<4, kY>(product, p);
            if (p.rows <= 8) return sweep<8, kY>(product, p);
            if (p.rows <= 16) return sweep<16, kY>(product, p);
            return sweep<32, kY>(product, p);
        };
        if (p.y == YRows::kAlongK) by_rows(std::integral_constant<YRows, YRows::kAlongK>{});
        else by_rows(std::integral_constant<YRows, YRows::kAlongS>{});
    }
    return 0;
}
