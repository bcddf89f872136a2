// Host side of the bulk tensor copies (copy/bulk_tensor.cuh): the tensor maps that describe A and B to the
// copy engine, and what a kernel built on them needs in order to run here.
#pragma once

#include <cuda.h>

#include "core/config.h"
#include "core/device.h"

namespace gemm {

// True when the copy engine can describe the rows of the matrix at `base` with leading dimension `ld`: a 16-byte
// aligned base, and rows 16-byte aligned (ld a multiple of 4 floats) and below 2^40 bytes apart.
bool bulk_copy_takes_rows(const float* base, int64_t ld);

// True when the copy engine can describe g's operands and C is float4-aligned too (bulk_copy_takes_rows for each).
bool bulk_copy_takes(const GemmArgs& g);

// The tensor maps of g's operands as stored, for block tiles of bm x bn x bk. An operand stored with K across its
// rows (A for op_a = MM_OP_N, B for op_b = MM_OP_T) comes in boxes of bm (bn) rows x bk columns with the 128- or
// 64-byte swizzle of rows of bk floats (bk = 32 or 16); one stored with K along its rows (A for MM_OP_T, B for
// MM_OP_N) in boxes of bk rows x bm (bn) columns, unswizzled.
mm_status encode_operand_maps(const GemmArgs& g, int bm, int bn, int bk, CUtensorMap* a_map, CUtensorMap* b_map);

// The tensor map of an operand stored with K along its rows, rows x k with leading dimension ld, in boxes of
// box_rows rows of bk floats (32 or 16) with the 128- or 64-byte swizzle: what encode_operand_maps makes of A for
// op_a = MM_OP_N and of B for op_b = MM_OP_T.
mm_status encode_k_major_map(const float* base, int64_t rows, int64_t k, int64_t ld, int box_rows, int bk,
                             CUtensorMap* map, const char* what);

// The tensor map of an operand stored with K down its columns (A for op_a = MM_OP_T, B for op_b = MM_OP_N), a
// k x mn matrix with leading dimension ld, in boxes of bk rows of 32 floats with the 128-byte swizzle: the form in
// which a kernel that loads the operand into registers itself (so in any order) takes it without a transposition.
mm_status encode_mn_major_map(const float* base, int64_t k, int64_t mn, int64_t ld, int bk, CUtensorMap* map,
                              const char* what);

// The tensor map of an int8 operand stored with K along its rows, rows x k with leading dimension ld bytes (a
// multiple of 16), in boxes of box_rows rows of kInt8KMajorBoxK bytes with the 128-byte swizzle: one swizzled row
// per row of the box, as integer wgmma reads a K-major operand from shared memory.
inline constexpr int kInt8KMajorBoxK = 128;
mm_status encode_int8_k_major_map(const int8_t* base, int64_t rows, int64_t k, int64_t ld, int box_rows,
                                  CUtensorMap* map, const char* what);

// The tensor map of a rows x cols matrix stored row by row (leading dimension ld), in unswizzled boxes of box_rows
// rows of box_cols floats (box_cols a multiple of 4; both at most 256).
mm_status encode_row_major_map(const float* base, int64_t rows, int64_t cols, int64_t ld, int box_rows, int box_cols,
                               CUtensorMap* map, const char* what);

// MM_OK when a kernel built on bulk tensor copies, whose machine code for this device is of architecture
// `machine_code` (gemm::machine_code_version), can run here; otherwise MM_ERR_UNAVAILABLE and a message naming
// `kernel` and what is missing (a Hopper GPU, sm_90 machine code, the driver's tensor-map encoder).
// `quiet` leaves the thread's last error untouched (for launchers that only need yes or no).
mm_status require_bulk_copy(int machine_code, const char* kernel, bool quiet = false);

// A ConfigDesc::can_run for kernel kKernel, built on bulk tensor copies and running any number of K slices.
template <auto kKernel>
bool bulk_copy_slices_can_run(const GemmArgs& g, int) {
    return bulk_copy_takes(g) && require_bulk_copy(machine_code_of<kKernel>(), "", true) == MM_OK;
}

// A ConfigDesc::can_run for kernel kKernel, built on bulk tensor copies and with no K slices of its own.
template <auto kKernel>
bool bulk_copy_can_run(const GemmArgs& g, int splits) {
    return splits == 1 && bulk_copy_slices_can_run<kKernel>(g, splits);
}

// The host steps before launching kernel kKernel, built on bulk tensor copies of `block` tiles: lets it use
// smem_bytes of dynamic shared memory on this device (once per device) and encodes g's tensor maps. The maps
// describe this call's matrices, so they are encoded per launch: host work only, enqueued ahead of the GPU in
// back-to-back launches.
template <auto kKernel>
mm_status prepare_bulk_copy_launch(int smem_bytes, const GemmArgs& g, BlockShape block, CUtensorMap* a_map,
                                   CUtensorMap* b_map) {
    MM_TRY(allow_shared_memory<kKernel>(smem_bytes, "cudaFuncSetAttribute"));
    return encode_operand_maps(g, block.m, block.n, block.k, a_map, b_map);
}

}  // namespace gemm
