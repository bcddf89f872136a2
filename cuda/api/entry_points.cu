// The C entry points of the products and the registry: validation, host<->device staging, dispatch through
// the registry.
#include <algorithm>

#include "api/enqueue.h"
#include "api/registry.h"
#include "api/validate.h"
#include "core/device_buffer.h"
#include "matmul.h"

namespace {

// Every entry point works on the calling thread's default stream, so threads never serialize on stream 0.
const cudaStream_t kStream = cudaStreamPerThread;

mm_status stage_in(DeviceBuffer& buffer, const float* host, int64_t rows, int64_t columns, int64_t ld,
                   int64_t device_ld, const char* what) {
    MM_TRY(buffer.allocate(sizeof(float) * std::max<int64_t>(rows * device_ld, 1), what));
    if (rows == 0 || columns == 0) return MM_OK;
    return mm_check_cuda(cudaMemcpy2DAsync(buffer.data(), device_ld * sizeof(float), host, ld * sizeof(float),
                                           columns * sizeof(float), rows, cudaMemcpyHostToDevice, kStream),
                         what);
}

mm_status gemm_host(const KernelEntry* entry, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                    const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
    MM_TRY(validate_gemm(entry, op_a, op_b, M, N, K, A, lda, B, ldb, C, ldc));
    if (M == 0 || N == 0) return MM_OK;
    // The stored matrices, copied as they are: op = T operands are rearranged on the GPU (enqueue_gemm).
    const int64_t rows_a = op_a == MM_OP_N ? M : K, cols_a = op_a == MM_OP_N ? K : M;
    const int64_t rows_b = op_b == MM_OP_N ? K : N, cols_b = op_b == MM_OP_N ? N : K;
    DeviceBuffer dA(kStream), dB(kStream), dC(kStream);
    const int64_t dlda = padded_ld(cols_a), dldb = padded_ld(cols_b), dldc = padded_ld(N);
    MM_TRY(stage_in(dA, A, rows_a, cols_a, lda, dlda, "copying A to the device"));
    MM_TRY(stage_in(dB, B, rows_b, cols_b, ldb, dldb, "copying B to the device"));
    if (beta != 0.0f) {
        MM_TRY(stage_in(dC, C, M, N, ldc, dldc, "copying C to the device"));
    } else {
        MM_TRY(dC.allocate(sizeof(float) * M * dldc, "allocating C on the device"));
        // All-ones bytes are a NaN: an element a kernel fails to write can never pass for a result (the pool may
        // hand back memory that still holds an earlier, correct product).
        MM_TRY(mm_check_cuda(cudaMemsetAsync(dC.data(), 0xFF, sizeof(float) * M * dldc, kStream), "poisoning C"));
    }
    MM_TRY(enqueue_gemm(entry, op_a, op_b, M, N, K, alpha, dA.data(), dlda, dB.data(), dldb, beta, dC.data(), dldc,
                        kStream));
    MM_TRY(mm_check_cuda(cudaMemcpy2DAsync(C, ldc * sizeof(float), dC.data(), dldc * sizeof(float),
                                           N * sizeof(float), M, cudaMemcpyDeviceToHost, kStream),
                         "copying C to the host"));
    return mm_check_cuda(cudaStreamSynchronize(kStream), entry->name);
}

mm_status matmul_host(const KernelEntry* entry, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                      const float* B, int64_t ldb, float* C, int64_t ldc) {
    return gemm_host(entry, MM_OP_N, MM_OP_N, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, C, ldc);
}

mm_status matmul_device(const KernelEntry* entry, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                        const float* B, int64_t ldb, float* C, int64_t ldc) {
    MM_TRY(enqueue_gemm(entry, MM_OP_N, MM_OP_N, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, C, ldc, kStream));
    return mm_check_cuda(cudaStreamSynchronize(kStream), entry->name);
}

// MM_OK when the registry has an entry `index`; otherwise MM_ERR_UNKNOWN_KERNEL with the message.
mm_status entry_at(int index) {
    if (registry_at(index) == nullptr) return mm_fail(MM_ERR_UNKNOWN_KERNEL, "kernel index %d is out of range", index);
    return MM_OK;
}

}  // namespace

extern "C" {

int mm_kernel_count(void) { return registry_size(); }

mm_status mm_kernel_name(int index, const char** name) {
    MM_TRY(entry_at(index));
    *name = registry_at(index)->name;
    return MM_OK;
}

mm_status mm_kernel_description(int index, const char** description) {
    MM_TRY(entry_at(index));
    *description = registry_at(index)->description;
    return MM_OK;
}

mm_status mm_kernel_arithmetic(int index, mm_arithmetic* arithmetic) {
    MM_TRY(entry_at(index));
    *arithmetic = registry_at(index)->arithmetic;
    return MM_OK;
}

mm_status mm_kernel_available(const char* kernel) {
    return ready_to_run(registry_find(kernel));
}

mm_status mm_gemm_host(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                       const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
    return gemm_host(registry_find(kernel), op_a, op_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

mm_status mm_matmul_host(const char* kernel, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                         const float* B, int64_t ldb, float* C, int64_t ldc) {
    return matmul_host(registry_find(kernel), M, N, K, A, lda, B, ldb, C, ldc);
}

mm_status mm_matmul_device(const char* kernel, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                           const float* B, int64_t ldb, float* C, int64_t ldc) {
    return matmul_device(registry_find(kernel), M, N, K, A, lda, B, ldb, C, ldc);
}

#define MM_KERNEL(name, arithmetic, description, launcher, requirement)                                         \
    mm_status mm_##name##_host(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,     \
                               int64_t ldb, float* C, int64_t ldc) {                                             \
        return matmul_host(registry_find(#name), M, N, K, A, lda, B, ldb, C, ldc);                              \
    }                                                                                                            \
    mm_status mm_##name##_device(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,   \
                                 int64_t ldb, float* C, int64_t ldc) {                                           \
        return matmul_device(registry_find(#name), M, N, K, A, lda, B, ldb, C, ldc);                            \
    }
#include "kernels.def"
#undef MM_KERNEL

}  // extern "C"
