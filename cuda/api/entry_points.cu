// The C entry points of the products and the registry: the host path (gemm_host.cu), the device path
// (gemm_async.cu) and the registry's queries.
#include "api/enqueue.h"
#include "api/gemm_host.h"
#include "api/registry.h"
#include "api/validate.h"
#include "core/host/pinned_buffer.h"
#include "matmul.h"

namespace {

// The device entries work on the calling thread's default stream, so threads never serialize on stream 0.
const cudaStream_t kStream = cudaStreamPerThread;

// C = A·B as a problem: both operands as stored, alpha 1, beta 0.
mm_gemm_problem plain_product(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda, const float* B,
                              int64_t ldb, float* C, int64_t ldc) {
    return {MM_OP_N, MM_OP_N, M, N, K, 1.0f, A, lda, B, ldb, 0.0f, C, ldc};
}

mm_status matmul_host(const KernelEntry* entry, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                      const float* B, int64_t ldb, float* C, int64_t ldc) {
    return gemm_host(entry, plain_product(M, N, K, A, lda, B, ldb, C, ldc));
}

mm_status matmul_device(const KernelEntry* entry, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                        const float* B, int64_t ldb, float* C, int64_t ldc) {
    return enqueue_gemm(entry, plain_product(M, N, K, A, lda, B, ldb, C, ldc), kStream, AfterEnqueue::kWait);
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

mm_status mm_kernel_native_ops(int index, unsigned* combinations) {
    MM_TRY(entry_at(index));
    if (combinations == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "combinations is a null pointer");
    *combinations = registry_at(index)->all_ops ? 0xFu : 1u << (2 * MM_OP_N + MM_OP_N);
    return MM_OK;
}

mm_status mm_kernel_available(const char* kernel) {
    return ready_to_run(registry_find(kernel));
}

mm_status mm_gemm_host(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                       const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
    return gemm_host(registry_find(kernel), {op_a, op_b, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc});
}

mm_status mm_gemm_host_problem(const char* kernel, const mm_gemm_problem* problem) {
    if (problem == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "problem is a null pointer");
    return gemm_host(registry_find(kernel), *problem);
}

mm_status mm_host_alloc(uint64_t bytes, void** p) {
    if (p == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "p is a null pointer");
    *p = nullptr;
    MM_TRY(require_device());
    return acquire_pinned_block(size_t(bytes), p);
}

mm_status mm_host_free(void* p) {
    if (p == nullptr) return MM_OK;
    return release_pinned_block(p);
}

mm_status mm_host_register(void* p, uint64_t bytes) {
    if (p == nullptr || bytes == 0) return mm_fail(MM_ERR_INVALID_ARGUMENT, "no memory to page-lock (%p, %llu bytes)",
                                                   p, static_cast<unsigned long long>(bytes));
    MM_TRY(require_device());
    return mm_check_cuda(cudaHostRegister(p, size_t(bytes), cudaHostRegisterPortable), "cudaHostRegister");
}

mm_status mm_host_unregister(void* p) {
    if (p == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "p is a null pointer");
    return mm_check_cuda(cudaHostUnregister(p), "cudaHostUnregister");
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
