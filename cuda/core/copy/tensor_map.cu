#include "core/copy/tensor_map.h"

#include "core/device.h"
#include "core/driver_entry.h"

namespace gemm {

namespace {

// cuTensorMapEncodeTiled, from the driver (core/driver_entry.h).
using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiled encoder() {
    static const EncodeTiled fn = reinterpret_cast<EncodeTiled>(driver_entry_point("cuTensorMapEncodeTiled", 12000));
    return fn;
}

// A row-major rows x cols matrix of `type` (elements of element_bytes, leading dimension ld elements) cut into
// boxes of box_rows x box_cols.
mm_status encode(CUtensorMap* map, const void* base, CUtensorMapDataType type, int64_t element_bytes, int64_t rows,
                 int64_t cols, int64_t ld, int box_rows, int box_cols, CUtensorMapSwizzle swizzle, const char* what) {
    const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
    const cuuint64_t strides[1] = {cuuint64_t(ld) * cuuint64_t(element_bytes)};
    const cuuint32_t box[2] = {cuuint32_t(box_cols), cuuint32_t(box_rows)};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult r = encoder()(map, type, 2, const_cast<void*>(base), dims, strides, box, element_strides,
                                 CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return mm_fail(MM_ERR_CUDA, "cuTensorMapEncodeTiled(%s) failed with CUresult %d", what, int(r));
    return MM_OK;
}

mm_status encode(CUtensorMap* map, const float* base, int64_t rows, int64_t cols, int64_t ld, int box_rows, int box_cols,
                 CUtensorMapSwizzle swizzle, const char* what) {
    return encode(map, base, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, sizeof(float), rows, cols, ld, box_rows, box_cols,
                  swizzle, what);
}

}  // namespace

bool bulk_copy_takes_rows(const float* base, int64_t ld) {
    constexpr int64_t kMaxLd = (int64_t(1) << 40) / int64_t(sizeof(float));  // row pitch below 2^40 bytes
    return rows_aligned16(base, ld) && ld < kMaxLd;
}

bool bulk_copy_takes(const GemmArgs& g) {
    return bulk_copy_takes_rows(g.A, g.lda) && bulk_copy_takes_rows(g.B, g.ldb) && rows_aligned16(g.C, g.ldc);
}

mm_status encode_k_major_map(const float* base, int64_t rows, int64_t k, int64_t ld, int box_rows, int bk,
                             CUtensorMap* map, const char* what) {
    const CUtensorMapSwizzle swizzle = bk * 4 == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B;
    return encode(map, base, rows, k, ld, box_rows, bk, swizzle, what);
}

mm_status encode_int8_k_major_map(const int8_t* base, int64_t rows, int64_t k, int64_t ld, int box_rows,
                                  CUtensorMap* map, const char* what) {
    return encode(map, base, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, rows, k, ld, box_rows, kInt8KMajorBoxK,
                  CU_TENSOR_MAP_SWIZZLE_128B, what);
}

mm_status encode_row_major_map(const float* base, int64_t rows, int64_t cols, int64_t ld, int box_rows, int box_cols,
                               CUtensorMap* map, const char* what) {
    return encode(map, base, rows, cols, ld, box_rows, box_cols, CU_TENSOR_MAP_SWIZZLE_NONE, what);
}

mm_status encode_operand_maps(const GemmArgs& g, int bm, int bn, int bk, CUtensorMap* a_map, CUtensorMap* b_map) {
    if (g.op_a == MM_OP_N)
        MM_TRY(encode_k_major_map(g.A, g.M, g.K, g.lda, bm, bk, a_map, "A"));
    else
        MM_TRY(encode_row_major_map(g.A, g.K, g.M, g.lda, bk, bm, a_map, "A"));
    if (g.op_b == MM_OP_N) return encode_row_major_map(g.B, g.K, g.N, g.ldb, bk, bn, b_map, "B");
    return encode_k_major_map(g.B, g.N, g.K, g.ldb, bn, bk, b_map, "B");
}

mm_status encode_mn_major_map(const float* base, int64_t k, int64_t mn, int64_t ld, int bk, CUtensorMap* map,
                              const char* what) {
    return encode(map, base, k, mn, ld, bk, 32, CU_TENSOR_MAP_SWIZZLE_128B, what);
}

mm_status require_bulk_copy(int machine_code, const char* kernel, bool quiet) {
    int major = 0;
    MM_TRY(compute_major(&major));
    if (major < 9)
        return quiet ? MM_ERR_UNAVAILABLE
                     : mm_fail(MM_ERR_UNAVAILABLE, "%s needs a GPU of compute capability 9.0 or newer (this one is %d.x)",
                               kernel, major);
    if (machine_code < 90)
        return quiet ? MM_ERR_UNAVAILABLE
                     : mm_fail(MM_ERR_UNAVAILABLE,
                               "%s: this libmatmul.so was built without sm_90 code (make ARCH=sm_90)", kernel);
    if (encoder() == nullptr)
        return quiet ? MM_ERR_UNAVAILABLE
                     : mm_fail(MM_ERR_UNAVAILABLE,
                               "%s: the driver has no cuTensorMapEncodeTiled (CUDA 12 driver or newer needed)", kernel);
    return MM_OK;
}

}  // namespace gemm
