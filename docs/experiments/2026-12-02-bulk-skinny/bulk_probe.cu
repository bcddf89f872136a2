// The skinny kernel's bulk mainloop (kernels/skinny/bulk_mainloop.cuh) against the library's skinny and best and
// cuBLAS, on products with a small side: every K slice count from 1 to 8 (summed by a cluster), for three ring
// shapes (6 stages at one block per SM; 8 stages; 4 stages at two blocks per SM). Each result is checked against
// cuBLAS's ('!' marks a mismatch). Beside each cluster size z, a: how many such clusters fit at once; then the
// slices through split-K's workspace and reduction instead, for slice counts up to one and a half waves.
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 --default-stream per-thread -Icuda -o docs/experiments/2026-12-02-bulk-skinny/bulk_probe \
//       docs/experiments/2026-12-02-bulk-skinny/bulk_probe.cu build/core/launch.o build/core/status.o \
//       build/core/schedule/split_k.o build/core/epilogue/split_k_reduce.o build/core/device_buffer.o \
//       build/core/copy/tensor_map.o -Lmatmul_opt -lmatmul -Xlinker -rpath,'$ORIGIN/../../../matmul_opt'
// Run: ./bulk_probe (no arguments).
#include "kernels/skinny.cu"
#include "kernels/skinny/bulk_mainloop.cuh"
#include "core/copy/tensor_map.h"

#include "../2026-12-02-grid-gaps/probe_calls.h"

const gemm::ConfigDesc pipelined::k64x64x16{};  // skinny's fallback, which this probe never runs

using namespace skinny;

// The tensor map of g's X in the bulk mainloop's boxes, and the kernel for g's Y layout.
template <class Shape>
CUtensorMap x_map_of(const SkinnyView& v) {
    CUtensorMap map;
    if (Shape::kX == XRows::kAlongL)
        must(gemm::encode_row_major_map(v.X, v.K, v.L, v.ldx, 32, 128, &map, "X"));
    else
        must(gemm::encode_k_major_map(v.X, v.L, v.K, v.ldx, 128, 32, &map, "X"));
    return map;
}

template <class Shape, YRows kY>
mm_status bulk_launch(const GemmArgs& g, int slices, int k_per_slice, gemm::SliceOutput out, bool cluster) {
    Plan q = layout(g);
    q.s_groups = 1;
    const SkinnyView v = view_of(g, q, k_per_slice, out, cluster);
    const CUtensorMap map = x_map_of<Shape>(v);
    constexpr auto kernel = &skinny_bulk<Shape, kY>;
    MM_TRY(gemm::allow_shared_memory<kernel>(Shape::kSmemBytes, "smem"));
    const dim3 grid(unsigned((v.L + 127) / 128), 1, unsigned(slices));
    return gemm::launch_in_clusters(cluster ? unsigned(slices) : 1u, kernel, grid, dim3(kThreads), Shape::kSmemBytes,
                                    nullptr, "bulk", map, v);
}

// split-K's slice launcher: the slices written to the workspace, summed by split-K's reduction.
template <class Shape, YRows kY>
mm_status bulk_slices(const GemmArgs& g, int splits, int ktiles_per_split, gemm::SliceOutput out, cudaStream_t) {
    return bulk_launch<Shape, kY>(g, splits, 32 * ktiles_per_split, out, false);
}

// Clusters of z slices at most that fit at once for this kernel.
template <class Shape, YRows kY>
int active_clusters(int z, int columns) {
    constexpr auto kernel = &skinny_bulk<Shape, kY>;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(unsigned(columns), 1, unsigned(z));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = Shape::kSmemBytes;
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 1, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = unsigned(z);
    config.attrs = &attr;
    config.numAttrs = 1;
    int n = 0;
    CK(cudaOccupancyMaxActiveClusters(&n, (void*)kernel, &config));
    return n;
}

template <class Shape, YRows kY>
void sweep_y(Product& p, const char* name, int sms) {
    constexpr auto kernel = &skinny_bulk<Shape, kY>;
    must(gemm::allow_shared_memory<kernel>(Shape::kSmemBytes, "smem"));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, Shape::kSmemBytes));
    const GemmArgs g = p.g;
    const Plan q = layout(g);
    const int columns = (q.L + 127) / 128, k_tiles = (g.K + 31) / 32;
    printf("   %-11s %d/SM cluster", name, per_sm);
    for (int z = 1; z <= 8; ++z) {
        const int per = (k_tiles + z - 1) / z, slices = (k_tiles + per - 1) / per;
        print_checked_us(p, [&] { must(bulk_launch<Shape, kY>(g, slices, 32 * per, {g.C, g.ldc, 0}, slices > 1)); });
        printf("(z%d a%d)", slices, slices > 1 ? active_clusters<Shape, kY>(slices, columns) : 0);
    }
    printf("\n   %-11s      split-K", "");
    const int wave = sms * per_sm / columns;
    for (int z : {2, 3, 4, 5, 6, 8, wave, wave + wave / 2}) {
        if (z < 2) continue;
        print_checked_us(p, [&] { must(gemm::run_split_k(g, z, 32, &bulk_slices<Shape, kY>, nullptr)); });
        printf("(z%d)", z);
    }
    printf("\n");
}

template <XRows kX, int kRows, int kStages, int kMin>
void sweep(Product& p, const Plan& plan_, const char* name, int sms) {
    using Shape = BulkShape<kX, kRows, kStages, kMin>;
    if (plan_.y == YRows::kAlongK) sweep_y<Shape, YRows::kAlongK>(p, name, sms);
    else sweep_y<Shape, YRows::kAlongS>(p, name, sms);
}

template <XRows kX, int kRows>
void variants(Product& p, const Plan& plan_, int sms) {
    sweep<kX, kRows, 6, 1>(p, plan_, "6 stages", sms);
    if constexpr (kRows == 4 || kRows == 8 || kRows == 16) {
        sweep<kX, kRows, 8, 1>(p, plan_, "8 stages", sms);
        sweep<kX, kRows, 4, 2>(p, plan_, "4 st, 2/SM", sms);
    }
}

template <XRows kX>
void by_rows(Product& p, const Plan& plan_, int sms) {
    const int S = plan_.S;
    if (S <= 4) variants<kX, 4>(p, plan_, sms);
    else if (S <= 8) variants<kX, 8>(p, plan_, sms);
    else if (S <= 12) variants<kX, 12>(p, plan_, sms);
    else if (S <= 16) variants<kX, 16>(p, plan_, sms);
    else if (S <= 24) variants<kX, 24>(p, plan_, sms);
    else variants<kX, 32>(p, plan_, sms);
}

void row(int M, int N, int K, bool b_t, int sms) {
    Product p(M, N, K, b_t, 9);
    const Plan plan_ = plan(p.g, sms);
    const double bytes = 4.0 * (double(M) * K + double(K) * N + double(M) * N);
    printf("%5dx%5dx%6d%s X along %s, Y along %s; floor at 4.48 TB/s %.1f us; cublas %8.2f  best",
           M, N, K, b_t ? " N.T" : "    ", plan_.x == XRows::kAlongL ? "L" : "K", plan_.y == YRows::kAlongK ? "K" : "S",
           bytes / 4.48e6, p.cublas_us);
    print_checked_us(p, [&] { must(launch_named("best", p.g)); });
    printf("  skinny");
    if (skinny::takes(p.g)) print_checked_us(p, [&] { must(launch_named("skinny", p.g)); });
    printf("\n");
    if (plan_.x == XRows::kAlongL) by_rows<XRows::kAlongL>(p, plan_, sms);
    else by_rows<XRows::kAlongK>(p, plan_, sms);
    fflush(stdout);
}

int main() {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const struct { int M, N, K; bool b_t; } shapes[] = {
        {1, 4096, 4096, false},    {8, 4096, 4096, false},    {4096, 16, 4096, false}, {3, 11008, 4096, false},
        {13, 5120, 13824, false},  {7000, 5, 3000, false},    {1, 1500, 9000, false},  {11, 14336, 2500, false},
        {32, 4096, 4096, false},   {9000, 24, 2000, false},   {17, 8000, 8000, false}, {16, 4096, 4096, true},
        {5, 11008, 4096, true},    {4096, 32, 4096, false},   {24, 12000, 3000, false}, {4096, 8, 4096, false},
        {20, 6000, 7000, true},    {12000, 3, 5000, false},
    };
    for (const auto& s : shapes) row(s.M, s.N, s.K, s.b_t, sms);
    return 0;
}
