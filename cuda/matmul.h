/* matmul-opt: the C API of libmatmul.so.
 *
 * Every function returns an mm_status; on failure mm_last_error() gives this thread's message (CUDA's own
 * error string, or which argument was bad and its value). Matrices are row-major float32 with leading
 * dimensions (the distance, in elements, between the starts of consecutive rows): C = A·B with A M×K,
 * B K×N and C M×N (mm_gemm_* take op(A), op(B) as well). Work is enqueued on the calling thread's default
 * stream (per-thread default streams), and every entry point returns only after it has finished, except
 * mm_gemm_async, mm_gemm_async_tracked, mm_stream_wait and mm_marker_record, which enqueue on the stream they are
 * given and return.
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

/* op(X) of a product: the matrix as stored (N) or its transpose (T), as in BLAS. */
typedef enum { MM_OP_N = 0, MM_OP_T = 1 } mm_op;

typedef enum {
    MM_ARITHMETIC_FP32 = 0, /* IEEE fp32 multiply-adds: relative error ~ sqrt(K) * 2^-24 */
    MM_ARITHMETIC_TF32 = 1, /* inputs rounded to tf32 (10-bit mantissa) on tensor cores: ~2^-12, whatever K */
    MM_ARITHMETIC_FP32_TENSOR = 2 /* fp32 accuracy on tensor cores (operands split into tf32 parts) */
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
/* The op combinations the kernel takes itself in mm_gemm_async: bit 2 * op_a + op_b of *combinations is set for
 * each (0x1: MM_OP_N, MM_OP_N alone; 0xF: all four). An operand of any other combination is rearranged on the GPU
 * by the entry before the kernel runs. (best takes all four; it reads N·N, T·N and T·T as stored and transposes B
 * of N·T once itself, which measures faster than reading it transposed.) */
MM_API mm_status mm_kernel_native_ops(int index, unsigned* combinations);
/* MM_OK when the kernel can run on this machine; otherwise MM_ERR_UNAVAILABLE or MM_ERR_NO_DEVICE and a
 * message that says why. */
MM_API mm_status mm_kernel_available(const char* kernel);

/* C = A·B by kernel name. The _host form takes host arrays (copied in and out by the library); the _device
 * form takes device pointers. K = 0 writes zeros; M = 0 or N = 0 does nothing. */
MM_API mm_status mm_matmul_host(const char* kernel, int64_t M, int64_t N, int64_t K, const float* A, int64_t lda,
                                const float* B, int64_t ldb, float* C, int64_t ldc);
MM_API mm_status mm_matmul_device(const char* kernel, int64_t M, int64_t N, int64_t K, const float* A,
                                  int64_t lda, const float* B, int64_t ldb, float* C, int64_t ldc);

/* C = alpha·op(A)·op(B) + beta·C on host arrays (the layouts of mm_gemm_async); returns when C holds the result.
 * The copies are streamed: B goes to the device first, then row panels of op(A) (and of C when beta != 0) go up,
 * are multiplied and come back as panels of C while the next panel goes up. Pageable memory is staged through
 * pinned buffers that the library keeps for later calls, filled and emptied by several CPU threads; pinned memory
 * (mm_host_alloc, cudaHostAlloc, cudaHostRegister) of 1 MiB or more is copied where it lies, at the host link's full
 * speed (smaller arrays are staged: that costs less than asking whether they are pinned). Panel
 * heights depend on the shape alone: the same inputs give the same result, bit for bit. C may not overlap A or B
 * (MM_ERR_INVALID_ARGUMENT). */
MM_API mm_status mm_gemm_host(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                              const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C,
                              int64_t ldc);

/* Pinned (page-locked) host memory of at least `bytes` bytes, usable with every GPU, for arrays the host path copies
 * at DMA speed; given back with mm_host_free (which takes NULL too), which keeps up to 2 GiB of freed blocks for
 * later requests of the same size (rounded up to 2 MiB), since pinning memory takes milliseconds. */
MM_API mm_status mm_host_alloc(uint64_t bytes, void** p);
MM_API mm_status mm_host_free(void* p);
/* Page-locks `bytes` bytes of host memory the caller owns, from `p`, for every GPU (cudaHostRegister, portable), so
 * that the host path copies it where it lies; mm_host_unregister(p) undoes it and must come before the memory is
 * freed. Locking pages that are mapped already is much cheaper than a new pinned allocation; other threads' copies
 * were seen to wait while one thread locked and unlocked memory (docs/experiments/2026-12-03-host-register.md). */
MM_API mm_status mm_host_register(void* p, uint64_t bytes);
MM_API mm_status mm_host_unregister(void* p);

/* The memory the library keeps between calls for later ones, in bytes; what calls in progress use is not counted. */
typedef struct {
    uint64_t pinned_cached;  /* pinned blocks freed with mm_host_free and kept for mm_host_alloc: at most 2 GiB */
    uint64_t pinned_staging; /* the pinned slots of the host path's staging sets that no call holds: at most 80 MiB
                                (five slots of 16 MiB) a set; a GPU has as many sets as host-path calls ran on it at
                                once */
    uint64_t device_pooled;  /* device memory the library's pools keep and no allocation uses (reserved less used,
                                over every pool): per GPU, past a synchronisation, at most 1 GiB in the pool of
                                the host path's device copies and 2 GiB in that of kernel workspaces */
} mm_held_memory;

/* Fills *held (a snapshot: other threads' calls may change it meanwhile). Needs no GPU: where none was used, all
 * three are 0. */
MM_API mm_status mm_memory_held(mm_held_memory* held);
/* Frees what mm_memory_held counts: the cached pinned blocks, the staging sets no call holds (their streams, events
 * and pinned slots) and the pools' unused device memory. To free the last, it first waits for all the work on every
 * GPU that has the library's pools, other threads' included (cudaDeviceSynchronize): the library frees device
 * memory in stream order, often after a call's last wait, and a pool can give memory back only once the host has
 * seen the stream pass its free. Calls in progress keep what they hold; later calls allocate anew; pinned memory
 * from mm_host_alloc that is not freed stays. Thread-safe; where no GPU was used it does nothing. */
MM_API mm_status mm_release_memory(void);

/* C = alpha·op(A)·op(B) + beta·C on device pointers, enqueued on `stream` (a cudaStream_t: NULL is the calling
 * thread's default stream; cudaStreamLegacy and cudaStreamPerThread are accepted too); returns without waiting.
 * op(A) is M x K: A is stored row-major M x K (lda >= K) for MM_OP_N, K x M (lda >= M) for MM_OP_T; op(B) is K x N
 * likewise; C is M x N (ldc >= N). beta = 0 ignores what C held (NaN included); K = 0 or alpha = 0 gives beta·C.
 * The three matrices must lie on one GPU, which becomes current for the call (and is restored after it), and
 * `stream`, unless a default stream, must be a stream of that GPU; C may not overlap A or B. Everything is checked
 * before anything is enqueued. A kernel whose mm_kernel_native_ops has the call's op combination (best and cublas
 * have all four) reads the operands as stored; for any other an op = T operand is first rearranged into a row-major
 * copy on the GPU.
 * Alpha and beta other than 1 and 0 are applied by a pass over C after the product went to a workspace (cuBLAS
 * included). The copies and the workspace are stream-ordered. */
MM_API mm_status mm_gemm_async(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K,
                               float alpha, const float* A, int64_t lda, const float* B, int64_t ldb, float beta,
                               float* C, int64_t ldc, void* stream);

/* What mm_gemm_async_tracked reports: the call's ticket (calls that enqueue a product are numbered 1, 2, ... in
 * the order their markers were recorded, across the process; 0 for a call that enqueued nothing, M or N being 0)
 * and the highest ticket up to which every tracked product has finished. */
typedef struct {
    uint64_t ticket;
    uint64_t finished_through;
} mm_tracking;

/* The arguments of mm_gemm_host and mm_gemm_async between the kernel name and the stream, as one struct: for
 * callers that pay per argument (Python's ctypes converts each one), mm_gemm_host_problem takes it, and
 * mm_gemm_async_tracked within its call struct. */
typedef struct {
    mm_op op_a, op_b;
    int64_t M, N, K;
    float alpha;
    const float* A;
    int64_t lda;
    const float* B;
    int64_t ldb;
    float beta;
    float* C;
    int64_t ldc;
} mm_gemm_problem;

/* mm_gemm_host on *problem. */
MM_API mm_status mm_gemm_host_problem(const char* kernel, const mm_gemm_problem* problem);

/* A tracked product as one struct, for callers that pay per argument and per call (Python's ctypes converts each
 * argument): the kernel's name, the problem, the stream, and what the call reports. */
typedef struct {
    const char* kernel;
    mm_gemm_problem problem;
    void* stream;
    mm_tracking tracking; /* written by mm_gemm_async_tracked */
} mm_tracked_gemm;

/* mm_gemm_async on call->problem and call->stream, then a marker after the product on that stream that the library
 * tracks; fills call->tracking, asking the markers of earlier calls oldest first whether their work has finished
 * (without waiting; a finished marker is taken back). For callers that keep the operands alive until the work that
 * reads them has finished (matmul_opt's GPU arrays): one call per product instead of mm_gemm_async,
 * mm_marker_record and mm_marker_finished. */
MM_API mm_status mm_gemm_async_tracked(mm_tracked_gemm* call);

/* What mm_gemm_async checks before it enqueues anything (arguments, then pointers, then that the stream is one of
 * the operands' GPU), with its arguments (alpha and beta may be anything): MM_OK when it would take them, else the
 * status and message it would give. Enqueues nothing: for callers that enqueue work of their own (stream waits)
 * before the product. */
MM_API mm_status mm_gemm_check(const char* kernel, mm_op op_a, mm_op op_b, int64_t M, int64_t N, int64_t K, float alpha,
                               const float* A, int64_t lda, const float* B, int64_t ldb, float beta, const float* C,
                               int64_t ldc, void* stream);

/* The GPU that holds device memory at `p` (MM_ERR_INVALID_ARGUMENT when p is not device memory), and the calling
 * thread's current GPU. */
MM_API mm_status mm_pointer_device(const void* p, int* device);
MM_API mm_status mm_current_device(int* device);

/* Makes `stream` wait (on the GPU, without blocking the host) for the work enqueued so far on `producer`; both
 * are streams of GPU `device`. */
MM_API mm_status mm_stream_wait(int device, void* stream, void* producer);

/* A marker (opaque) after the work enqueued so far on `stream` (of GPU `device`); mm_marker_finished tells whether
 * that work has finished, and takes the marker back once it has (finished = 1): it is not to be used again. */
MM_API mm_status mm_marker_record(int device, void* stream, void** marker);
MM_API mm_status mm_marker_finished(void* marker, int* finished);

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
 * out its device copies (rows padded to a multiple of 4 floats); the whole M x N x K product is one launch, where
 * the host path multiplies large problems in panels of rows. */
MM_API mm_status mm_benchmark(const char* kernel, int64_t M, int64_t N, int64_t K, int warmup, int repetitions,
                              double* median_ms);

/* The read bandwidth of device memory in GB/s (1e9 bytes per second): a sum over `bytes` of random floats on the
 * current GPU, timed with CUDA events, the median of `repetitions` after a warm-up read. Roofline floors divide the
 * bytes a product must move by it. */
MM_API mm_status mm_benchmark_read_bandwidth(uint64_t bytes, int repetitions, double* gb_per_s);

MM_API mm_status mm_device_info_get(mm_device_info* info);

/* Tuning hooks of the `best` kernel (used by `python -m matmul_opt.tune`, which regenerates
 * cuda/kernels/best_table.h): its tile configurations, and a process-wide override of its choice
 * (config -1 restores the heuristic; splits 0 takes as many K slices as best's split-K rule would). */
MM_API int mm_best_config_count(void);
MM_API mm_status mm_best_config_name(int config, const char** name);
MM_API mm_status mm_best_force(int config, int splits);

/* Whether `best` runs a ragged cut's edges beside the bulk on a side stream of its own (1, the default) or after the
 * bulk on the caller's stream (0): process-wide, for the measurements that compare the two. Both give the same
 * bits. */
MM_API mm_status mm_best_edges_beside(int allowed);

/* Whether K slices may be added up within the launch that computes them (1, the default): a tile's slices of at most
 * 8 within a thread block cluster, or, for the kernels that can, every slice in a cooperative launch once all are
 * written; or always through the split-K workspace and its reduction kernel (0): process-wide, for the tests and the
 * measurements that compare the two. Both give the same bits. */
MM_API mm_status mm_split_k_sums_in_launch(int allowed);

/* An override of wgmma_tf32's tile width (0 restores its rule; else 8, 16, 24, 32, 64, 128 or 256 columns), of
 * whether it reads a B stored N x K as stored, in C's transpose (1, its rule) or rounds it into a copy (0), and of
 * whether a ragged last wave's tiles may go in K pieces (1, its rule) or not (0). */
MM_API mm_status mm_wgmma_tf32_force(int width, int k_major_transpose, int split_tail);

/* Whether best_fp32_accurate runs every product off the tensor cores (1), as it does below its thresholds (pairwise
 * or best), or chooses by its table (0, the default): for the tuner, which times that choice against the tensor-core
 * kernels. */
MM_API mm_status mm_fp32_accurate_force_ffma(int on);

#ifdef __cplusplus
}
#endif

#endif
