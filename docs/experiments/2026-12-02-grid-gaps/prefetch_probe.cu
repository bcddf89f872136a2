// The skinny kernel's mainloop along L (X's rows along C's large side) as it is, against the same loop with the
// next step's loads of X issued before the current step's FMAs (X double-buffered in registers), and with Y's too,
// on products whose plan takes one K slice; each result checked against cuBLAS's.
// Build (from the repository root, after make):
//   nvcc -std=c++20 -O3 -arch=sm_90 --default-stream per-thread -Icuda -o docs/experiments/2026-12-02-grid-gaps/prefetch_probe \
//       docs/experiments/2026-12-02-grid-gaps/prefetch_probe.cu build/core/launch.o build/core/status.o \
//       build/core/schedule/split_k.o build/core/epilogue/split_k_reduce.o build/core/device_buffer.o -Lmatmul_opt -lmatmul -Xlinker -rpath,'$ORIGIN/../../../matmul_opt'
// Run: ./prefetch_probe (no arguments).
#include "kernels/skinny.cu"

#include "probe_calls.h"

const gemm::ConfigDesc pipelined::k64x64x16{};  // skinny's fallback, which this probe never runs

namespace skinny {

// skinny_along_l with the loads of step k + stride (X; and Y where kPrefetchY) issued before step k's FMAs.
template <int kRows, bool kPrefetchY>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) prefetching_along_l(const SkinnyView v) {
    __shared__ float4 block_sums[kRows][32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int lane_quads = v.lane_quads, k_lanes = 32 / lane_quads;
    const int lq = lane % lane_quads, kl = lane / lane_quads;
    const int l = int((column_block(v) * lane_quads + lq) * 4);
    const int s0 = s_group(v) * kRows;
    int k_begin = 0, k_end = 0;
    slice_range(v, &k_begin, &k_end);
    const int stride = 4 * k_lanes * kWarps;
    const auto load_x = [&](float4 (&x)[4], int k) {
#pragma unroll
        for (int j = 0; j < 4; ++j)
            x[j] = gemm::guarded_row4<gemm::StreamedLoad>(v.X + int64_t(k + j) * v.ldx, l, k + j < k_end ? v.L : 0,
                                                          true);
    };
    float acc[kRows][4] = {};
    int k = k_begin + 4 * (warp * k_lanes + kl);
    float4 x_next[4], y_next[kRows];
    load_x(x_next, k);
    if constexpr (kPrefetchY) load_y<kRows, YRows::kAlongK, true>(y_next, v, s0, k, k_end);
    for (; k < k_end; k += stride) {
        float4 x[4], y[kRows];
#pragma unroll
        for (int j = 0; j < 4; ++j) x[j] = x_next[j];
        if constexpr (kPrefetchY) {
#pragma unroll
            for (int s = 0; s < kRows; ++s) y[s] = y_next[s];
            load_y<kRows, YRows::kAlongK, true>(y_next, v, s0, k + stride, k_end);
        } else {
            load_y<kRows, YRows::kAlongK, true>(y, v, s0, k, k_end);
        }
        load_x(x_next, k + stride);
#pragma unroll
        for (int s = 0; s < kRows; ++s)
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const float a = gemm::f4_get(y[s], j);
                acc[s][0] = fmaf(a, x[j].x, acc[s][0]);
                acc[s][1] = fmaf(a, x[j].y, acc[s][1]);
                acc[s][2] = fmaf(a, x[j].z, acc[s][2]);
                acc[s][3] = fmaf(a, x[j].w, acc[s][3]);
            }
    }
    for (int mask = lane_quads; mask < 32; mask <<= 1)
#pragma unroll
        for (int s = 0; s < kRows; ++s)
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[s][c] += __shfl_xor_sync(0xffffffffu, acc[s][c], mask);
    for (int w = 0; w < kWarps; ++w) {
        if (warp == w && kl == 0)
#pragma unroll
            for (int s = 0; s < kRows; ++s) {
                float4 sum = w == 0 ? make_float4(0.f, 0.f, 0.f, 0.f) : block_sums[s][lq];
                sum.x += acc[s][0];
                sum.y += acc[s][1];
                sum.z += acc[s][2];
                sum.w += acc[s][3];
                block_sums[s][lq] = sum;
            }
        __syncthreads();
    }
    const int64_t l_block = column_block(v) * lane_quads * 4;
    write_sums<kRows>(v, &block_sums[0][0].x, kRows * 128, [&](int o, int* s, int64_t* at_l) {
        *s = o / 128;
        *at_l = o % 128 < 4 * lane_quads ? l_block + o % 128 : v.L;
    });
}

}  // namespace skinny

template <int kRows>
void row(int M, int N, int K, int sms) {
    Product p(M, N, K, false, 9);
    const Plan plan_ = plan(p.g, sms);
    printf("%5dx%5dx%5d quads %2d blocks %4lld groups %d slices %d  cublas %8.2f best", M, N, K, plan_.lane_quads,
           (long long)plan_.column_blocks, plan_.s_groups, plan_.splits, p.cublas_us);
    print_checked_us(p, [&] { launch_named("best", p.g); });
    if (plan_.splits != 1 || plan_.x != XRows::kAlongL || plan_.rows != kRows) {
        printf("  (plan not covered)\n");
        return;
    }
    const SkinnyView v = view_of(p.g, plan_, int((K + 3) / 4 * 4), {p.g.C, p.g.ldc, 0}, false);
    const dim3 grid(unsigned(plan_.column_blocks * plan_.s_groups));
    printf("  as is");
    print_checked_us(p, [&] { skinny_along_l<kRows, YRows::kAlongK, true, true><<<grid, kThreads>>>(v); });
    printf("  x ahead");
    print_checked_us(p, [&] { prefetching_along_l<kRows, false><<<grid, kThreads>>>(v); });
    printf("  x, y ahead");
    print_checked_us(p, [&] { prefetching_along_l<kRows, true><<<grid, kThreads>>>(v); });
    printf("\n");
    fflush(stdout);
}

int main() {
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    row<1>(1, 4096, 4096, sms);
    row<1>(1, 12288, 6000, sms);
    row<2>(2, 8192, 8192, sms);
    row<4>(3, 11008, 4096, sms);
    row<4>(4, 4096, 4096, sms);
    row<8>(8, 4096, 4096, sms);
    row<8>(6, 9000, 5000, sms);
    row<8>(13, 5120, 13824, sms);
    row<8>(16, 4096, 4096, sms);
    return 0;
}
