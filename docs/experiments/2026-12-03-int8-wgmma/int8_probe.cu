// int8_probe: one INT8 tensor-core GEMM on the project's Hopper frame, the first measurement issue 36 asks for
// (the ozaki-emulation record: 8192³ and 16384³ need 8 INT8 products each, so the rung's speed rests on how fast one
// INT8 product runs, rested and at the power limit).
//
// C (int32, M x N) = A (int8, M x K, K contiguous) . B^T (B int8, N x K, K contiguous): both operands K-major, as
// integer wgmma reads them from shared memory (the transposed forms are for 16-bit types) and as the scheme's
// quantising pass would write them. The kernel composes the warp-specialised persistent frame
// (core/kernel/warp_specialized.cuh) with parts of its own:
//   - Producer: the A tile (128 rows x 128 k) and the B tile (256 x 128) of a K tile by bulk tensor copies, 128-byte
//     swizzled: a K tile of 128 int8 is one 128-byte row per M or N index, the layout TF32's 32 floats have;
//   - Mainloop: per consumer warpgroup, 4 wgmma.mma_async m64n256k32 s32.s8.s8 per K tile, A and B from shared memory
//     by descriptors (32 bytes further along the swizzled rows per k32 step, as TF32's k8 steps), one K tile's MMAs
//     in flight while the next stage is waited for;
//   - Epilogue: the int32 accumulators (the f32 fragment layout) straight to C.
// 4 stages of 48 KiB, 384 threads (a producer warpgroup, two consumer warpgroups of 64 rows), one block per SM.
//
// Build (sm_90a for wgmma), from the repository root:
//   nvcc -O3 -std=c++20 -gencode arch=compute_90a,code=sm_90a -Icuda \
//       docs/experiments/2026-12-03-int8-wgmma/int8_probe.cu -o /tmp/int8_probe
// Run: /tmp/int8_probe [SIZE...]   (default 4096 8192 16384): checks the product bit for bit against a plain int32
// kernel on two shapes (one ragged), then prints TOPS per size, rested (after 0.5 s idle) and sustained (after 3 s
// of the same product), medians of 5 timings of back-to-back launches.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "core/kernel/warp_specialized.cuh"

#define CHECK(call)                                                                              \
    do {                                                                                         \
        const cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(1);                                                                        \
        }                                                                                        \
    } while (0)

namespace {

constexpr int kBM = 128, kBN = 256, kBK = 128;
constexpr gemm::WarpSpecialized kFrame{.stages = 4, .consumers = 2, .producer_registers = 40,
                                       .consumer_registers = 232};
constexpr int kStages = kFrame.stages;
constexpr int kABytes = kBM * kBK, kBBytes = kBN * kBK;
constexpr int kAccumulators = kBN / 2;  // 64 x 256 int32 over a warpgroup's 128 threads
constexpr int kSteps = kBK / 32;       // k32 steps per K tile

static_assert(kBK == 128, "a K tile is one 128-byte swizzled row of int8");
static_assert(kBM == 64 * kFrame.consumers, "each consumer warpgroup owns 64 rows and every column");

struct Tiles {
    int8_t a[kStages][kABytes];
    int8_t b[kStages][kBBytes];
};
using Storage = gemm::WarpSpecializedStorage<Tiles, kStages>;
constexpr int kSmemBytes = gemm::kWarpSpecializedSmemBytes<Storage>;
using Ring = gemm::RingPosition<kStages>;
using Schedule = gemm::PersistentTiles<kBM, kBN>;

struct Params {
    const CUtensorMap* a_map;
    const CUtensorMap* b_map;
    int32_t* c;
    int ldc;
    gemm::PersistentSchedule schedule;
};

struct Producer {
    static constexpr uint32_t kStageBytes = kABytes + kBBytes;

    __device__ __forceinline__ static void prefetch(const Params& p) {
        gemm::prefetch_tensor_map(p.a_map);
        gemm::prefetch_tensor_map(p.b_map);
    }
    __device__ __forceinline__ static void load(Tiles& tiles, int stage, uint32_t full, const gemm::TileUnit& w,
                                                int kt, const Params& p) {
        gemm::bulk_tensor_load_2d(gemm::smem_addr(tiles.a[stage]), p.a_map, full, kt * kBK, w.m0);
        gemm::bulk_tensor_load_2d(gemm::smem_addr(tiles.b[stage]), p.b_map, full, kt * kBK, w.n0);
    }
};

__device__ __forceinline__ void hold(int32_t (&d)[kAccumulators]) {
#pragma unroll
    for (int i = 0; i < kAccumulators; ++i) asm volatile("" : "+r"(d[i])::"memory");
}

// d = A.B + (accumulate ? d : 0) for a 64 x 256 x 32 step of int8, both operands by descriptor.
__device__ __forceinline__ void wgmma_m64n256k32_s8(int32_t (&d)[kAccumulators], uint64_t a_desc, uint64_t b_desc,
                                                    bool accumulate) {
#define MM_D8(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), "+r"(d[i + 4]), "+r"(d[i + 5]), \
                 "+r"(d[i + 6]), "+r"(d[i + 7])
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8 {"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
        "%128, %129, p;\n"
        "}\n"
        : MM_D8(0), MM_D8(8), MM_D8(16), MM_D8(24), MM_D8(32), MM_D8(40), MM_D8(48), MM_D8(56), MM_D8(64),
          MM_D8(72), MM_D8(80), MM_D8(88), MM_D8(96), MM_D8(104), MM_D8(112), MM_D8(120)
        : "l"(a_desc), "l"(b_desc), "r"(int(accumulate)));
#undef MM_D8
}

class Mainloop {
  public:
    using Accumulators = int32_t[kAccumulators];

    __device__ __forceinline__ explicit Mainloop(int consumer_index) : a_offset_(consumer_index * 64 * kBK) {}

    __device__ __forceinline__ void operator()(Storage& st, Ring& r, const gemm::TileUnit& w) {
        int retiring = -1;
        for (int kt = 0; kt < w.ktiles; ++kt) {
            st.wait_full(r);
            const uint32_t a_rows = gemm::smem_addr(st.tiles.a[r.stage]) + a_offset_;
            const uint32_t b_rows = gemm::smem_addr(st.tiles.b[r.stage]);
            hold(acc_);
            gemm::wgmma_fence();
#pragma unroll
            for (int k = 0; k < kSteps; ++k)
                wgmma_m64n256k32_s8(acc_, gemm::sw128_k_major_descriptor(a_rows + 32 * k),
                                    gemm::sw128_k_major_descriptor(b_rows + 32 * k), kt > 0 || k > 0);
            gemm::wgmma_commit();
            gemm::wgmma_wait<1>();
            if (retiring >= 0) st.release(retiring);
            retiring = r.stage;
            r.advance();
        }
        gemm::wgmma_wait<0>();
        hold(acc_);
        if (retiring >= 0) st.release(retiring);
    }

    __device__ __forceinline__ const Accumulators& result() const { return acc_; }

  private:
    uint32_t a_offset_;  // the consumer's 64 rows of the A tile: 8 swizzle atoms on
    Accumulators acc_;
};

// The fragment layout of wgmma's accumulators (g = lane / 4, t = lane % 4, warp w of the warpgroup):
// d[4j], d[4j + 1] at row 16w + g, columns 8j + 2t and + 1; d[4j + 2], d[4j + 3] at row 16w + g + 8.
struct Epilogue {
    __device__ __forceinline__ static void store(const int32_t (&acc)[kAccumulators], const gemm::TileUnit& w,
                                                 int consumer_index, const Params& p) {
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32 % 4;
        const int row = w.m0 + 64 * consumer_index + 16 * warp + lane / 4;
        const int M = p.schedule.M, N = p.schedule.N;
#pragma unroll
        for (int j = 0; j < kAccumulators / 4; ++j) {
            const int col = w.n0 + 8 * j + 2 * (lane % 4);
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = row + 8 * h;
                if (r >= M) continue;
                int32_t* const out = p.c + int64_t(r) * p.ldc + col;
                if (col + 1 < N && p.ldc % 2 == 0) {
                    *reinterpret_cast<int2*>(out) = make_int2(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
                } else {
                    if (col < N) out[0] = acc[4 * j + 2 * h];
                    if (col + 1 < N) out[1] = acc[4 * j + 2 * h + 1];
                }
            }
        }
    }
};

__global__ void __launch_bounds__(kFrame.threads(), 1)
    int8_gemm(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map, int32_t* c,
              int ldc, gemm::PersistentSchedule s) {
    gemm::warp_specialized<kFrame, Tiles, Schedule, Producer, Mainloop, Epilogue>(Params{&a_map, &b_map, c, ldc, s});
}

// Values in [-127, 127] from a hash of the index and a seed.
__global__ void fill(int8_t* x, int64_t n, uint32_t seed) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
        uint32_t h = uint32_t(i) * 2654435761u ^ seed ^ uint32_t(i >> 32) * 40503u;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        x[i] = int8_t(int(h % 255u) - 127);
    }
}

__global__ void reference(const int8_t* a, const int8_t* b, int32_t* c, int M, int N, int K) {
    const int m = blockIdx.y * blockDim.y + threadIdx.y, n = blockIdx.x * blockDim.x + threadIdx.x;
    if (m >= M || n >= N) return;
    int32_t sum = 0;
    for (int k = 0; k < K; ++k) sum += int32_t(a[int64_t(m) * K + k]) * int32_t(b[int64_t(n) * K + k]);
    c[int64_t(m) * N + n] = sum;
}

// cuTensorMapEncodeTiled from the driver at run time, so that the probe builds without libcuda.
PFN_cuTensorMapEncodeTiled_v12000 encoder() {
    static PFN_cuTensorMapEncodeTiled_v12000 f = [] {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &found));
        if (found != cudaDriverEntryPointSuccess) {
            std::fprintf(stderr, "the driver has no cuTensorMapEncodeTiled\n");
            std::exit(1);
        }
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    }();
    return f;
}

CUtensorMap k_major_map(const int8_t* base, int64_t rows, int64_t k, int box_rows) {
    CUtensorMap map;
    const cuuint64_t dims[2] = {cuuint64_t(k), cuuint64_t(rows)};
    const cuuint64_t strides[1] = {cuuint64_t(k)};
    const cuuint32_t box[2] = {cuuint32_t(kBK), cuuint32_t(box_rows)};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult r = encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<int8_t*>(base), dims,
                                              strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                              CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", int(r));
        std::exit(1);
    }
    return map;
}

struct Problem {
    int M, N, K;
    int8_t *a, *b;
    int32_t* c;
    CUtensorMap a_map, b_map;
    gemm::PersistentSchedule s;
    int blocks;
};

Problem make_problem(int M, int N, int K, int sms) {
    if (K % 16 != 0) {
        std::fprintf(stderr, "K must be a multiple of 16 (the copy engine's row stride)\n");
        std::exit(1);
    }
    Problem p{M, N, K, nullptr, nullptr, nullptr, {}, {}, {}, 0};
    CHECK(cudaMalloc(&p.a, size_t(M) * K));
    CHECK(cudaMalloc(&p.b, size_t(N) * K));
    CHECK(cudaMalloc(&p.c, size_t(M) * N * sizeof(int32_t)));
    fill<<<1024, 256>>>(p.a, int64_t(M) * K, 12345u);
    fill<<<1024, 256>>>(p.b, int64_t(N) * K, 67890u);
    CHECK(cudaGetLastError());
    p.a_map = k_major_map(p.a, M, K, kBM);
    p.b_map = k_major_map(p.b, N, K, kBN);
    const int tiles_m = (M + kBM - 1) / kBM, tiles_n = (N + kBN - 1) / kBN, ktiles = (K + kBK - 1) / kBK;
    p.s = gemm::PersistentSchedule{M, N, ktiles, ktiles, tiles_m, tiles_n, tiles_m * tiles_n, 1, ktiles};
    p.blocks = std::min(tiles_m * tiles_n, sms);
    return p;
}

void launch(const Problem& p) {
    int8_gemm<<<p.blocks, kFrame.threads(), kSmemBytes>>>(p.a_map, p.b_map, p.c, p.N, p.s);
}

void free_problem(Problem& p) {
    CHECK(cudaFree(p.a));
    CHECK(cudaFree(p.b));
    CHECK(cudaFree(p.c));
}

bool verify(int M, int N, int K, int sms) {
    Problem p = make_problem(M, N, K, sms);
    int32_t* expected = nullptr;
    CHECK(cudaMalloc(&expected, size_t(M) * N * sizeof(int32_t)));
    CHECK(cudaMemset(p.c, 0xFF, size_t(M) * N * sizeof(int32_t)));  // poison
    launch(p);
    CHECK(cudaGetLastError());
    reference<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(p.a, p.b, expected, M, N, K);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<int32_t> got(size_t(M) * N), want(size_t(M) * N);
    CHECK(cudaMemcpy(got.data(), p.c, got.size() * sizeof(int32_t), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(want.data(), expected, want.size() * sizeof(int32_t), cudaMemcpyDeviceToHost));
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && wrong++ == 0) first = i;
    std::printf("verify %dx%dx%d: %zu of %zu elements differ", M, N, K, wrong, got.size());
    if (wrong) std::printf(" (first at row %zu, column %zu: %d, expected %d)", first / N, first % N, got[first], want[first]);
    std::printf("\n");
    CHECK(cudaFree(expected));
    free_problem(p);
    return wrong == 0;
}

// Milliseconds per launch: the median of 5 timings of `launches` back-to-back launches.
double time_ms(const Problem& p, int launches) {
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<double> ms;
    for (int round = 0; round < 5; ++round) {
        CHECK(cudaEventRecord(start));
        for (int i = 0; i < launches; ++i) launch(p);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        ms.push_back(double(t) / launches);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    std::sort(ms.begin(), ms.end());
    return ms[2];
}

}  // namespace

int main(int argc, char** argv) {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaFuncSetAttribute(int8_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    const bool ok = verify(1024, 1536, 2048, sms) & verify(1000, 1100, 1008, sms);
    if (!ok) return 1;
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty()) sizes = {4096, 8192, 16384};
    std::printf("%8s %12s %12s %14s %14s\n", "size", "rested ms", "rested TOPS", "sustained ms", "sustained TOPS");
    for (int n : sizes) {
        Problem p = make_problem(n, n, n, sms);
        const double ops = 2.0 * n * n * double(n);
        const int launches = std::max(1, int(2e12 / ops));  // about 2e12 operations per timing
        for (int i = 0; i < 3; ++i) launch(p);
        CHECK(cudaDeviceSynchronize());
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        const double rested = time_ms(p, launches);
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
        while (std::chrono::steady_clock::now() < until) {
            for (int i = 0; i < launches; ++i) launch(p);
            CHECK(cudaDeviceSynchronize());
        }
        const double sustained = time_ms(p, launches);
        std::printf("%8d %12.3f %12.1f %14.3f %14.1f\n", n, rested, ops / rested / 1e9, sustained,
                    ops / sustained / 1e9);
        free_problem(p);
    }
    return 0;
}
