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
    if (rows > 0 && ld > INT64_MAX / rows)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s = %lld times %lld rows overflows a 64-bit element count", name,
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

mm_status validate(const KernelEntry* entry, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                   const float* B, int64_t ldb, const float* C, int64_t ldc) {
    if (entry == nullptr) return MM_ERR_UNKNOWN_KERNEL;
    MM_TRY(check_dimension("M", M));
    MM_TRY(check_dimension("N", N));
    MM_TRY(check_dimension("K", K));
    MM_TRY(check_leading("lda", lda, K, M));
    MM_TRY(check_leading("ldb", ldb, N, K));
    MM_TRY(check_leading("ldc", ldc, N, M));
    MM_TRY(check_pointer("A", A, M * K));
    MM_TRY(check_pointer("B", B, K * N));
    MM_TRY(check_pointer("C", C, M * N));
    return ready_to_run(entry);
}

