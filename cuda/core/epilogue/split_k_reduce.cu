// The split-K reduction: one thread per 4 consecutive outputs, float4 workspace reads, grid-stride over
// M x N/4. The workspace is 16-byte aligned by construction (cudaMallocAsync alignment, ldw and the slab stride
// multiples of 4), so only the last, partial quad of a row needs scalar reads, which also keeps the
// never-written padding columns unread.
#include "core/epilogue/split_k_reduce.h"

#include "core/copy/guarded_load.cuh"
#include "core/device.h"
#include "core/epilogue/direct_store.cuh"
#include "core/launch.h"

namespace gemm {

namespace {

constexpr int kReduceThreads = 256;

template <bool kAlignedC>
__global__ void __launch_bounds__(kReduceThreads)
    split_k_reduce_kernel(const float* __restrict__ ws, int64_t ldw, int64_t slab, int splits, int M, int N,
                          float* __restrict__ C, int64_t ldc) {
    const int64_t quads = (int64_t(N) - 1) / 4 + 1;
    const int64_t total = int64_t(M) * quads;
    const int64_t stride = int64_t(gridDim.x) * kReduceThreads;
    for (int64_t i = int64_t(blockIdx.x) * kReduceThreads + threadIdx.x; i < total; i += stride) {
        const int64_t row = i / quads;
        const int col = int(i - row * quads) * 4;
        const int valid = N - col;
        const float* w = ws + row * ldw + col;
        float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
        for (int z = 0; z < splits; ++z) {
            const float4 v = load_row4<true>(w + z * slab, 0, valid);
            s.x += v.x;
            s.y += v.y;
            s.z += v.z;
            s.w += v.w;
        }
        store4<kAlignedC>(C + row * ldc + col, valid, s);
    }
}

}  // namespace

mm_status launch_split_k_reduce(const float* ws, int64_t ldw, int64_t slab, int splits, const GemmArgs& g,
                                cudaStream_t stream) {
    int sms = 0;
    MM_TRY(sm_count(&sms));
    const int64_t total = int64_t(g.M) * ((int64_t(g.N) - 1) / 4 + 1);
    const int64_t want = (total - 1) / kReduceThreads + 1;
    const unsigned blocks = unsigned(want < int64_t(sms) * 8 ? want : int64_t(sms) * 8);
    return with_alignment(rows_aligned16(g.C, g.ldc), [&](auto aligned) {
        return gemm::launch(split_k_reduce_kernel<decltype(aligned)::value>, blocks, kReduceThreads, 0, stream,
                            "split-K reduction", ws, ldw, slab, splits, g.M, g.N, g.C, g.ldc);
    });
}

}  // namespace gemm
