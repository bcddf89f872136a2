#include "api/validate.h"

#include <algorithm>
#include <climits>

mm_status require_device() {
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        cudaGetLastError();
        mm_check_cuda(err, "no usable CUDA device: is an NVIDIA GPU with its driver present? cudaGetDeviceCount");
        return MM_ERR_NO_DEVICE;
    }
    if (count == 0) return mm_fail(MM_ERR_NO_DEVICE, "no CUDA device is present");
    return MM_OK;
}

mm_status check_dimension(const char* name, int64_t value) {
    if (value < 0 || value > INT_MAX)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s = %lld is out of range: dimensions must be in [0, %d]", name,
                       static_cast<long long>(value), INT_MAX);
    return MM_OK;
}

static mm_status check_leading(const char* name, int64_t ld, int64_t columns, int64_t rows) {
    if (ld < std::max<int64_t>(columns, 1))
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s = %lld is smaller than the row length %lld", name,
                       static_cast<long long>(ld), static_cast<long long>(columns));
    if (rows > 0 && ld > INT64_MAX / int64_t(sizeof(float)) / rows)  // the byte extents must fit too
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s = %lld times %lld rows overflows a 64-bit byte count", name,
                       static_cast<long long>(ld), static_cast<long long>(rows));
    return MM_OK;
}

static mm_status check_pointer(const char* name, const void* p, int64_t elements) {
    if (p == nullptr && elements > 0) return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s is a null pointer", name);
    return MM_OK;
}

mm_status ready_to_run(const KernelEntry* entry) {
    if (entry == nullptr) return MM_ERR_UNKNOWN_KERNEL;
    MM_TRY(require_device());
    return entry->requirement();
}

static mm_status check_op(const char* name, mm_op op) {
    if (op != MM_OP_N && op != MM_OP_T)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s = %d is neither MM_OP_N (0) nor MM_OP_T (1)", name, int(op));
    return MM_OK;
}

namespace {

// Bytes [first, last) that a rows x cols row-major matrix with leading dimension ld spans (rows, cols >= 1).
struct Extent {
    uintptr_t first, last;
};

Extent extent(const float* p, int64_t rows, int64_t cols, int64_t ld) {
    const uintptr_t first = reinterpret_cast<uintptr_t>(p);
    return {first, first + uintptr_t(((rows - 1) * ld + cols) * int64_t(sizeof(float)))};
}

bool overlap(Extent a, Extent b) { return a.first < b.last && b.first < a.last; }

// MM_ERR_INVALID_ARGUMENT when the bytes C spans overlap those of A or B (arguments already validated).
mm_status check_no_overlap(const mm_gemm_problem& p) {
    if (p.M == 0 || p.N == 0 || p.K == 0) return MM_OK;
    const Extent c = extent(p.C, p.M, p.N, p.ldc);
    const Extent a = p.op_a == MM_OP_N ? extent(p.A, p.M, p.K, p.lda) : extent(p.A, p.K, p.M, p.lda);
    const Extent b = p.op_b == MM_OP_N ? extent(p.B, p.K, p.N, p.ldb) : extent(p.B, p.N, p.K, p.ldb);
    if (overlap(c, a)) return mm_fail(MM_ERR_INVALID_ARGUMENT, "C overlaps A: the product cannot be written over an input");
    if (overlap(c, b)) return mm_fail(MM_ERR_INVALID_ARGUMENT, "C overlaps B: the product cannot be written over an input");
    return MM_OK;
}

}  // namespace

mm_status validate_gemm(const KernelEntry* entry, const mm_gemm_problem& p) {
    if (entry == nullptr) return MM_ERR_UNKNOWN_KERNEL;
    MM_TRY(check_op("op_a", p.op_a));
    MM_TRY(check_op("op_b", p.op_b));
    MM_TRY(check_dimension("M", p.M));
    MM_TRY(check_dimension("N", p.N));
    MM_TRY(check_dimension("K", p.K));
    // The stored matrices: A is M x K, or K x M for MM_OP_T; B is K x N, or N x K.
    MM_TRY(p.op_a == MM_OP_N ? check_leading("lda", p.lda, p.K, p.M) : check_leading("lda", p.lda, p.M, p.K));
    MM_TRY(p.op_b == MM_OP_N ? check_leading("ldb", p.ldb, p.N, p.K) : check_leading("ldb", p.ldb, p.K, p.N));
    MM_TRY(check_leading("ldc", p.ldc, p.N, p.M));
    MM_TRY(check_pointer("A", p.A, p.M * p.K));
    MM_TRY(check_pointer("B", p.B, p.K * p.N));
    MM_TRY(check_pointer("C", p.C, p.M * p.N));
    MM_TRY(check_no_overlap(p));
    return ready_to_run(entry);
}
