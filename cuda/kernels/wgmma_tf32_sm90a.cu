// wgmma_tf32 (first version: one loop, no warp specialisation yet): Hopper warpgroup MMA on TF32 tensor cores.
//
// Technique: a block of two warpgroups computes a 128 x 128 tile of C; each warpgroup owns 64 rows and issues
// wgmma.mma_async m64n128k8 (core/mma/wgmma_tf32.cuh), which reads both operands straight from shared memory, so
// no fragment passes through registers (mma_tf32 loads every fragment with ldmatrix and scalar loads). One thread
// brings each K tile with two bulk tensor copies (TMA) into 128-byte-swizzled shared memory on a 4-stage mbarrier
// ring (core/pipeline/mbarrier_ring.cuh). TF32 wgmma takes both operands K-major, so B must be stored N x K: a B
// stored K x N (op_b = N) is transposed once on the GPU first (core/layout/rearrange.h), as is any operand the
// copy engine cannot take as stored (A stored K x M, rows not 16-byte aligned). Before the tensor cores read a
// stage, the block rounds it to TF32 in place (cvt.rna: wgmma itself would truncate), then publishes it with a
// proxy fence and a barrier.
//
// Changes vs mma_tf32: warpgroup MMAs from shared-memory descriptors instead of warp MMAs from register fragments;
// TMA copies on an mbarrier ring instead of cp.async; the rounding moves from each fragment load (repeated by every
// warp that reads the value) to one pass over each stage.
//
// Tile: 128 x 128 x 32, 256 threads (two consumer warpgroups), 4 stages of 32 KiB, one block per SM.
//
// What limits this version: each K tile is waited for, rounded, multiplied and retired in turn (wgmma_wait<0>), so
// the rounding of tile t and the MMAs of tile t never overlap, and 128 x 128 tiles with one block per SM leave
// the tensor cores short of work per barrier. The next versions: a third warpgroup that only brings tiles (one
// thread issuing the copies) and rounds each landed stage before announcing it on a second barrier, while the
// consumers multiply the stage before (setmaxnreg moving registers from it to the consumers); "empty" barriers
// through which the consumers give stages back instead of the block barrier; 128 x 256 tiles (m64n256 per
// consumer warpgroup); a persistent tile scheduler with rasterisation; an epilogue that does not stall the next
// tile's mainloop.
#include "core/copy/bulk_tensor.cuh"
#include "core/copy/tensor_map.h"
#include "core/device.h"
#include "core/device_buffer.h"
#include "core/layout/rearrange.h"
#include "core/mma/wgmma_tf32.cuh"
#include "core/pipeline/mbarrier_ring.cuh"
#include "core/problem.h"
#include "core/schedule/raster.cuh"

namespace {

constexpr int kBM = 128, kBN = 128, kBK = 32, kStages = 4, kWarpgroups = 2, kThreads = 128 * kWarpgroups;
constexpr int kAStageFloats = kBM * kBK, kStageFloats = kAStageFloats + kBN * kBK;
constexpr int kStageBytes = kStageFloats * int(sizeof(float));
constexpr int kSwizzleAtomBytes = 1024;  // the stages start on swizzle-atom boundaries
constexpr int kSmemBytes = kSwizzleAtomBytes + kStages * kStageBytes + kStages * int(sizeof(uint64_t));

static_assert(kBK * sizeof(float) == 128, "a K tile is one 128-byte swizzled row per M or N index");
static_assert(kBM == 64 * kWarpgroups && kBN == gemm::kWgmmaN, "each warpgroup owns 64 rows and every column");
static_assert(kStageBytes % kSwizzleAtomBytes == 0 && kAStageFloats * 4 % kSwizzleAtomBytes == 0, "aligned stages");
static_assert(gemm::fits_shared_memory(kSmemBytes, 1), "one block per SM");

// Writes two adjacent accumulators of row `row` from column `col` (even), each only where it lies in C.
template <bool kAligned>
__device__ __forceinline__ void store2(float* C, int64_t ldc, int M, int N, int row, int col, float x, float y) {
    if (row >= M || col >= N) return;
    float* p = C + int64_t(row) * ldc + col;
    if (kAligned && col + 1 < N) {
        *reinterpret_cast<float2*>(p) = make_float2(x, y);
        return;
    }
    p[0] = x;
    if (col + 1 < N) p[1] = y;
}

template <bool kAligned>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_tf32_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, float* C,
                      int64_t ldc, int M, int N, int K) {
    extern __shared__ uint8_t smem_raw[];
    // Offset from the array itself (not through an integer), so the compiler keeps these accesses in shared space.
    uint8_t* const base = smem_raw + (kSwizzleAtomBytes - gemm::smem_addr(smem_raw) % kSwizzleAtomBytes) % kSwizzleAtomBytes;
    float* const stages = reinterpret_cast<float*>(base);
    gemm::MbarrierRing<kStages> ring(reinterpret_cast<uint64_t*>(base + kStages * kStageBytes));
    const int tid = threadIdx.x;
    if (tid == 0) {
        ring.init();
        gemm::prefetch_tensor_map(&a_map);
        gemm::prefetch_tensor_map(&b_map);
    }
    __syncthreads();

    int bm = 0, bn = 0;
    gemm::tile_coords(blockIdx.x, tiles_of(M, kBM), tiles_of(N, kBN), gemm::kRasterBandRows, bm, bn);
    const int m0 = bm * kBM, n0 = bn * kBN, ktiles = int(tiles_of(K, kBK));
    // Tile kt goes to stage kt % kStages, announced on that stage's barrier (the ring's tile numbering).
    const auto issue = [&](int kt) {
        float* const a_s = stages + ring.slot(kt) * kStageFloats;
        ring.expect(kt, kStageBytes);
        gemm::bulk_tensor_load_2d(gemm::smem_addr(a_s), &a_map, ring.full_barrier(kt), kt * kBK, m0);
        gemm::bulk_tensor_load_2d(gemm::smem_addr(a_s + kAStageFloats), &b_map, ring.full_barrier(kt), kt * kBK, n0);
    };
    if (tid == 0)
        for (int kt = 0; kt < kStages && kt < ktiles; ++kt) issue(kt);

    const int warpgroup = tid / 128;
    float acc[gemm::kWgmmaAccumulators] = {};
    for (int kt = 0; kt < ktiles; ++kt) {
        float* const a_s = stages + ring.slot(kt) * kStageFloats;
        ring.wait(kt);
        gemm::round_stage_to_tf32<kStageFloats, kThreads>(a_s, tid);
        __syncthreads();
        const uint32_t a_rows = gemm::smem_addr(a_s + warpgroup * 64 * kBK), b_rows = gemm::smem_addr(a_s + kAStageFloats);
        gemm::wgmma_hold(acc);
        gemm::wgmma_fence();
#pragma unroll
        for (int k8 = 0; k8 < kBK / 8; ++k8)  // 8 floats = 32 bytes further along the swizzled rows
            gemm::wgmma_m64n128k8_tf32(acc, gemm::sw128_k_major_descriptor(a_rows + 32 * k8),
                                       gemm::sw128_k_major_descriptor(b_rows + 32 * k8), 1);
        gemm::wgmma_commit();
        gemm::wgmma_wait<0>();
        gemm::wgmma_hold(acc);
        __syncthreads();  // both warpgroups are done with the stage: it may be refilled
        if (tid == 0 && kt + kStages < ktiles) issue(kt + kStages);
    }

    const int lane = tid % 32, warp = tid % 128 / 32;
    const int row = m0 + warpgroup * 64 + warp * 16 + lane / 4, col = n0 + 2 * (lane % 4);
#pragma unroll
    for (int j = 0; j < gemm::kWgmmaN / 8; ++j) {
        store2<kAligned>(C, ldc, M, N, row, col + 8 * j, acc[4 * j], acc[4 * j + 1]);
        store2<kAligned>(C, ldc, M, N, row + 8, col + 8 * j, acc[4 * j + 2], acc[4 * j + 3]);
    }
}

// op(X) of `rows` x `cols` as the copy engine takes it (row-major, K along the rows, rows 16-byte aligned): X
// itself when it is stored so, else gathered into `workspace`. row_stride and column_stride step op(X)'s rows
// and columns through X as stored.
mm_status k_major(const float* X, int64_t ld, bool stored_so, int64_t rows, int64_t cols, int64_t row_stride,
                  int64_t column_stride, DeviceBuffer& workspace, const float** out, int64_t* ld_out,
                  cudaStream_t stream) {
    if (stored_so && rows_aligned16(X, ld)) {
        *out = X;
        *ld_out = ld;
        return MM_OK;
    }
    *ld_out = padded_ld(cols);
    MM_TRY(workspace.allocate(sizeof(float) * size_t(rows) * size_t(*ld_out), "the K-major copy of an operand"));
    MM_TRY(gemm::launch_gather(X, rows, cols, row_stride, column_stride, workspace.data(), *ld_out, stream));
    *out = workspace.data();
    return MM_OK;
}

constexpr auto kRowMajorKernel = &wgmma_tf32_kernel<false>;

}  // namespace

// wgmma and the bulk tensor copies need a Hopper GPU and this file's sm_90a machine code.
mm_status requires_wgmma() { return gemm::require_bulk_copy(gemm::machine_code_of<kRowMajorKernel>(), "wgmma_tf32"); }

mm_status launch_wgmma_tf32(const GemmArgs& g, cudaStream_t stream) {
    DeviceBuffer a_rows(stream, DeviceBuffer::Pool::kWorkspace), b_rows(stream, DeviceBuffer::Pool::kWorkspace);
    GemmArgs k = g;  // A as M x K and B as N x K, both with K along their rows
    const bool a_n = g.op_a == MM_OP_N, b_t = g.op_b == MM_OP_T;
    MM_TRY(k_major(g.A, g.lda, a_n, g.M, g.K, a_n ? g.lda : 1, a_n ? 1 : g.lda, a_rows, &k.A, &k.lda, stream));
    MM_TRY(k_major(g.B, g.ldb, b_t, g.N, g.K, b_t ? g.ldb : 1, b_t ? 1 : g.ldb, b_rows, &k.B, &k.ldb, stream));
    k.op_a = MM_OP_N;
    k.op_b = MM_OP_T;
    return with_alignment(rows_aligned16(g.C, g.ldc), [&](auto aligned) {
        constexpr auto kernel = &wgmma_tf32_kernel<decltype(aligned)::value>;
        CUtensorMap a_map, b_map;
        MM_TRY(gemm::prepare_bulk_copy_launch<kernel>(kSmemBytes, k, gemm::BlockShape{kBM, kBN, kBK}, &a_map, &b_map));
        kernel<<<tiles_of(g.M, kBM) * tiles_of(g.N, kBN), kThreads, kSmemBytes, stream>>>(a_map, b_map, g.C, g.ldc, g.M,
                                                                                          g.N, g.K);
        return mm_check_launch("wgmma_tf32");
    });
}
