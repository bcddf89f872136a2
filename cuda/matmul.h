/* matmul-opt: the C API of libmatmul.so.
 *
 * Every function returns an mm_status; on failure mm_last_error() gives this thread's message (CUDA's own
 * error string, or which argument was bad and its value). Matrices are row-major float32 with leading
 * dimensions (the distance, in elements, between the starts of consecutive rows): C = A·B with A M×K,
 * B K×N and C M×N. Work is enqueued on the calling thread's default stream (per-thread default streams),
 * and every entry point returns only after it has finished.
 */
#ifndef MATMUL_OPT_MATMUL_H
#define MATMUL_OPT_MATMUL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MM_API __attribute__((visibility("default")))

typedef enum {
    MM_OK = 0,
    MM_ERR_INVALID_ARGUMENT = 1, /* a dimension, leading dimension or pointer is unusable */
    MM_ERR_UNKNOWN_KERNEL = 2,   /* no kernel of that name or index */
    MM_ERR_OUT_OF_MEMORY = 3,    /* device memory allocation failed */
    MM_ERR_NO_DEVICE = 4,        /* no CUDA device or no usable driver */
    MM_ERR_UNAVAILABLE = 5,      /* the kernel cannot run here (missing library, too old a GPU) */
    MM_ERR_CUDA = 6              /* any other CUDA failure */
} mm_status;

typedef enum {
    MM_ARITHMETIC_FP32 = 0, /* IEEE fp32 multiply-adds: relative error ~ sqrt(K) * 2^-24 */
    MM_ARITHMETIC_TF32 = 1  /* inputs rounded to tf32 (10-bit mantissa) on tensor cores: ~1e-3 */
} mm_arithmetic;

typedef struct {
    char name[256];
    int sm_count;
    int compute_capability_major;
    int compute_capability_minor;
    uint64_t total_memory_bytes;
    uint64_t free_memory_bytes;
    int sm_clock_khz;          /* maximum SM clock */
    int fp32_lanes_per_sm;     /* FP32 FMA units per SM, 0 when the architecture is unknown */
    int driver_version;        /* as cudaDriverGetVersion, e.g. 13000 */
    int runtime_version;       /* the CUDA runtime this library was built with */
} mm_device_info;

/* This thread's message for its most recent failure ("" if none). Valid until this thread's next call. */
MM_API const char* mm_last_error(void);

/* The kernel registry. */
MM_API int mm_kernel_count(void);
MM_API mm_status mm_kernel_name(int index, const char** name);
MM_API mm_status mm_kernel_description(int index, const char** description);
MM_API mm_status mm_kernel_arithmetic(int index, mm_arithmetic* arithmetic);
/* MM_OK when the kernel can run on this machine; otherwise MM_ERR_UNAVAILABLE or MM_ERR_NO_DEVICE and a
 * message that says why. */
MM_API mm_status mm_kernel_available(const char* kernel);

/* C = A·B by kernel name. The _host form takes host arrays (copied in and out by the library); the _device
 * form takes device pointers. K = 0 writes zeros; M = 0 or N = 0 does nothing. */
MM_API mm_status mm_matmul_host(const char* kernel, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                                const float* B, int64_t ldb, float* C, int64_t ldc);
MM_API mm_status mm_matmul_device(const char* kernel, int64_t M, int64_t N, int64_t K, const float* A,
                                  int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc);

/* One entry point per registered kernel, mm_<name>_host and mm_<name>_device, with the arguments above
 * minus the kernel name. The list comes from the registry itself. */
#define MM_KERNEL(name, arithmetic, description, launcher, requirement)                                                  \
    MM_API mm_status mm_##name##_host(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,          \
                                      const float* B, int64_t ldb, float* C, int64_t ldc);                   \
    MM_API mm_status mm_##name##_device(int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,        \
                                        const float* B, int64_t ldb, float* C, int64_t ldc);
#include "kernels.def"
#undef MM_KERNEL

/* Times one kernel at M×N×K on device-resident random inputs (uniform in [-1, 1]) with CUDA events:
 * `warmup` untimed launches, then `repetitions` rounds of back-to-back launches (each round at least about
 * 1 ms long); writes the median time per launch in milliseconds. The inputs are laid out as mm_matmul_host lays
 * out its device copies (rows padded to a multiple of 4 floats), so the time is that of what users call. */
MM_API mm_status mm_benchmark(const char* kernel, int64_t M, int64_t N, int64_t K, int warmup, int repetitions,
                              double* median_ms);

MM_API mm_status mm_device_info_get(mm_device_info* info);

/* Tuning hooks of the `best` kernel (used by `python -m matmul_opt.tune`, which regenerates
 * cuda/kernels/best_table.h): its tile configurations, and a process-wide override of its choice
 * (config -1 restores the heuristic). */
MM_API int mm_best_config_count(void);
MM_API mm_status mm_best_config_name(int config, const char** name);
MM_API mm_status mm_best_force(int config, int splits);

#ifdef __cplusplus
}
#endif

#endif
