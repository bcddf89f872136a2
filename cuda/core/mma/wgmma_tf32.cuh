// Hopper warpgroup MMA on TF32 (device, sm_90a): wgmma.mma_async m64nNk8 with A from registers (N = 8, 16, 24, 32,
// 64, 128, 256), and m64n128k8 with A from shared memory, B from 128-byte-swizzled shared memory, their fences, and
// the register-budget instruction of warp-specialised kernels.
//
// A warpgroup (4 consecutive warps, the first a multiple of 4) issues one wgmma for a 64 x 256 x 8 product. TF32
// wgmma reads B from shared memory K-major only (rows of K contiguous; the transposed form is for 16-bit types),
// here in the layout a bulk tensor copy with the 128-byte swizzle writes: rows of 32 floats (128 bytes), the 16-byte
// chunk c of row r stored at chunk c ^ (r % 8), eight rows making a 1,024-byte swizzle atom, atoms one after
// another. Its descriptor holds the start address, the byte offset between 8-row groups (1,024) and the swizzle
// mode; successive k8 steps inside the 128-byte row start 32 bytes further on, the hardware applying the swizzle to
// the address it forms, so a tile must start 1,024-byte aligned. A comes from registers, which lets the kernel round
// it to TF32 on the way in (the tensor cores would ignore the low 13 mantissa bits of raw fp32, i.e. truncate).
//
// Fragments (g = lane / 4, t = lane % 4, warp w of the warpgroup; PTX ISA "Register fragments" for wgmma .tf32):
//   A (64 x 8):    a0 (16w + g, t)   a1 (16w + g + 8, t)   a2 (16w + g, t + 4)   a3 (16w + g + 8, t + 4)
//                  (the m16n8k8 A fragment of the warp's 16 rows: ldmatrix_a_tf32 loads it)
//   D (64 x 256):  d[4j] (16w + g, 8j + 2t)   d[4j + 1] (.., 8j + 2t + 1)   d[4j + 2] (16w + g + 8, 8j + 2t)
//                  d[4j + 3] (16w + g + 8, 8j + 2t + 1), for the 32 column chunks j.
// The instruction runs asynchronously: the accumulators and the A registers belong to it from the issue until a
// wgmma.wait_group retires its group, so the kernel keeps them live (wgmma_hold) and writes neither meanwhile.
#pragma once

#include <cstdint>

#include "core/mma/tf32_mma_sync.cuh"

namespace gemm {

constexpr int kWgmmaN = 256;                     // columns of one instruction's product
constexpr int kWgmmaAccumulators = kWgmmaN / 2;  // 64 x N fp32 over 128 threads
constexpr int kWgmmaK = 8;

// The descriptor of a K-major operand tile in 128-byte-swizzled rows of 32 floats, starting at shared-window
// address `addr` (1,024-byte aligned at the tile's start, plus 32 bytes per k8 step inside it).
__device__ __forceinline__ uint64_t sw128_k_major_descriptor(uint32_t addr) {
    constexpr uint64_t kStrideBytes = 1024;  // between 8-row groups
    constexpr uint64_t kLeadingBytes = 16;   // unused for swizzled K-major layouts; 1 in 16-byte units
    constexpr uint64_t kSwizzle128B = 1;
    return uint64_t((addr & 0x3FFFF) >> 4) | ((kLeadingBytes >> 4) << 16) | ((kStrideBytes >> 4) << 32) |
           (kSwizzle128B << 62);
}

// An operand stored with K down its columns (MN-major), as a bulk tensor copy with the 128-byte swizzle brings it
// (core/copy/tensor_map.h, encode_mn_major_map): boxes of kBoxRows rows of K by 32 row indices of the operand
// (128 bytes), one box after another, the 16-byte chunk c of box row k stored at chunk c ^ (k % 8). For a kernel that
// loads such a tile into registers itself: the bytes of one box, and the shared-window offset of element (row, k)
// from the tile's start.
template <int kBoxRows>
__device__ __forceinline__ constexpr int mn_major_box_bytes() {
    return 32 * kBoxRows * int(sizeof(float));
}
template <int kBoxRows>
__device__ __forceinline__ uint32_t mn_major_sw128_offset(int row, int k) {
    return uint32_t((row / 32) * mn_major_box_bytes<kBoxRows>() + k * 128 + ((((row % 32) >> 2) ^ (k & 7)) << 4) +
                    (row & 3) * 4);
}

// Keeps the compiler from moving accesses to registers that an asynchronous MMA owns across the fences and waits,
// and from giving those registers to other values before the wait that retires the MMA.
template <int kCount>
__device__ __forceinline__ void wgmma_hold(float (&d)[kCount]) {
#pragma unroll
    for (int i = 0; i < kCount; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
template <int kSteps>
__device__ __forceinline__ void wgmma_hold(uint32_t (&a)[kSteps][4]) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
#pragma unroll
        for (int i = 0; i < 4; ++i) asm volatile("" : "+r"(a[s][i])::"memory");
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
// Blocks until at most kPending committed groups of this warpgroup are still running.
template <int kPending>
__device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
}

// The accumulator operands of inline wgmma: their names in the instruction (%0 to %n - 1 for n accumulators, n / 2
// columns) and, for four or eight fp32 accumulators from d[i], their read-write constraints.
#define MM_WGMMA_ACCUMULATORS_4 "%0, %1, %2, %3"
#define MM_WGMMA_ACCUMULATORS_8 MM_WGMMA_ACCUMULATORS_4 ", %4, %5, %6, %7"
#define MM_WGMMA_ACCUMULATORS_12 MM_WGMMA_ACCUMULATORS_8 ", %8, %9, %10, %11"
#define MM_WGMMA_ACCUMULATORS_16 MM_WGMMA_ACCUMULATORS_12 ", %12, %13, %14, %15"
#define MM_WGMMA_ACCUMULATORS_32                                                                           \
    MM_WGMMA_ACCUMULATORS_16 ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define MM_WGMMA_ACCUMULATORS_64                                                                           \
    MM_WGMMA_ACCUMULATORS_32 ", "                                                                          \
    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "                       \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define MM_WGMMA_ACCUMULATORS_128                                                                          \
    MM_WGMMA_ACCUMULATORS_64 ", "                                                                          \
    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "                       \
    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "                       \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "           \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define MM_WGMMA_F32_4(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3])
#define MM_WGMMA_F32_8(i) MM_WGMMA_F32_4(i), MM_WGMMA_F32_4(i + 4)

// d = A·B + (accumulate ? d : 0) for a 64 x 256 x 8 step: A from this thread's fragment registers, B from its
// descriptor.
__device__ __forceinline__ void wgmma_m64n256k8_tf32(float (&d)[kWgmmaAccumulators], const uint32_t (&a)[4],
                                                     uint64_t b_desc, bool accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %133, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
        MM_WGMMA_ACCUMULATORS_128 "}, "
        "{%128, %129, %130, %131}, %132, p, 1, 1;\n"
        "}\n"
        : MM_WGMMA_F32_8(0), MM_WGMMA_F32_8(8), MM_WGMMA_F32_8(16), MM_WGMMA_F32_8(24), MM_WGMMA_F32_8(32), MM_WGMMA_F32_8(40), MM_WGMMA_F32_8(48), MM_WGMMA_F32_8(56), MM_WGMMA_F32_8(64),
          MM_WGMMA_F32_8(72), MM_WGMMA_F32_8(80), MM_WGMMA_F32_8(88), MM_WGMMA_F32_8(96), MM_WGMMA_F32_8(104), MM_WGMMA_F32_8(112), MM_WGMMA_F32_8(120)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc), "r"(int(accumulate)));
}

// A 64 x 128 x 8 step with A from this thread's fragment registers (as the 64 x 256 step above), B from its
// descriptor: 64 accumulators per thread, laid out as above for 16 column chunks.
__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[64], const uint32_t (&a)[4], uint64_t b_desc,
                                                     bool accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %69, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
        MM_WGMMA_ACCUMULATORS_64 "}, "
        "{%64, %65, %66, %67}, %68, p, 1, 1;\n"
        "}\n"
        : MM_WGMMA_F32_8(0), MM_WGMMA_F32_8(8), MM_WGMMA_F32_8(16), MM_WGMMA_F32_8(24), MM_WGMMA_F32_8(32), MM_WGMMA_F32_8(40), MM_WGMMA_F32_8(48), MM_WGMMA_F32_8(56)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc), "r"(int(accumulate)));
}

// A 64 x N x 8 step (N = 8 to 64) with A from this thread's fragment registers: SHAPE the instruction's shape, ACCS
// the accumulators' names, A_REGS, B_DESC and PRED the names of the operands that follow them, and the variadic
// arguments the accumulators' constraints.
#define MM_WGMMA_TF32_REGISTER_A(SHAPE, ACCS, A_REGS, B_DESC, PRED, ...)                                    \
    asm volatile("{\n"                                                                                      \
                 ".reg .pred p;\n"                                                                          \
                 "setp.ne.b32 p, " PRED ", 0;\n"                                                            \
                 "wgmma.mma_async.sync.aligned." SHAPE ".f32.tf32.tf32 {" ACCS "}, {" A_REGS "}, " B_DESC  \
                 ", p, 1, 1;\n"                                                                             \
                 "}\n"                                                                                      \
                 : __VA_ARGS__                                                                              \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc), "r"(int(accumulate)))

// d = A·B + (accumulate ? d : 0) for a 64 x kN x 8 step with A from registers, for any width of a tile: kN / 2
// accumulators per thread, laid out as for 256 columns, over kN / 8 column chunks.
template <int kN>
__device__ __forceinline__ void wgmma_tf32_step(float (&d)[kN / 2], const uint32_t (&a)[4], uint64_t b_desc,
                                                bool accumulate) {
    if constexpr (kN == 8) {
        MM_WGMMA_TF32_REGISTER_A("m64n8k8", MM_WGMMA_ACCUMULATORS_4, "%4, %5, %6, %7", "%8", "%9", MM_WGMMA_F32_4(0));
    } else if constexpr (kN == 16) {
        MM_WGMMA_TF32_REGISTER_A("m64n16k8", MM_WGMMA_ACCUMULATORS_8, "%8, %9, %10, %11", "%12", "%13",
                                 MM_WGMMA_F32_8(0));
    } else if constexpr (kN == 24) {
        MM_WGMMA_TF32_REGISTER_A("m64n24k8", MM_WGMMA_ACCUMULATORS_12, "%12, %13, %14, %15", "%16", "%17",
                                 MM_WGMMA_F32_8(0), MM_WGMMA_F32_4(8));
    } else if constexpr (kN == 32) {
        MM_WGMMA_TF32_REGISTER_A("m64n32k8", MM_WGMMA_ACCUMULATORS_16, "%16, %17, %18, %19", "%20", "%21",
                                 MM_WGMMA_F32_8(0), MM_WGMMA_F32_8(8));
    } else if constexpr (kN == 64) {
        MM_WGMMA_TF32_REGISTER_A("m64n64k8", MM_WGMMA_ACCUMULATORS_32, "%32, %33, %34, %35", "%36", "%37",
                                 MM_WGMMA_F32_8(0), MM_WGMMA_F32_8(8), MM_WGMMA_F32_8(16), MM_WGMMA_F32_8(24));
    } else if constexpr (kN == 128) {
        wgmma_m64n128k8_tf32(d, a, b_desc, accumulate);
    } else {
        static_assert(kN == kWgmmaN, "a width with an instruction above");
        wgmma_m64n256k8_tf32(d, a, b_desc, accumulate);
    }
}

// A 64 x 128 x 8 step with both operands in shared memory (descriptors as for B above; A's 64 rows K-major like
// B's). 64 accumulators per thread, laid out as above for 16 column chunks.
__device__ __forceinline__ void wgmma_m64n128k8_tf32(float (&d)[64], uint64_t a_desc, uint64_t b_desc,
                                                     bool accumulate) {
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "setp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
        MM_WGMMA_ACCUMULATORS_64 "}, "
        "%64, %65, p, 1, 1;\n"
        "}\n"
        : MM_WGMMA_F32_8(0), MM_WGMMA_F32_8(8), MM_WGMMA_F32_8(16), MM_WGMMA_F32_8(24), MM_WGMMA_F32_8(32), MM_WGMMA_F32_8(40), MM_WGMMA_F32_8(48), MM_WGMMA_F32_8(56)
        : "l"(a_desc), "l"(b_desc), "r"(int(accumulate)));
}

// The register budget of the calling warpgroup, for warp-specialised kernels: a producer gives registers back,
// consumers take them. Every warp of the warpgroup executes the same call; the kernel needs a register cap at
// entry (__launch_bounds__(threads, 1)).
template <int kRegisters>
__device__ __forceinline__ void warpgroup_release_registers() {
    static_assert(kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256, "setmaxnreg's range");
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
}
template <int kRegisters>
__device__ __forceinline__ void warpgroup_claim_registers() {
    static_assert(kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256, "setmaxnreg's range");
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
}

}  // namespace gemm
