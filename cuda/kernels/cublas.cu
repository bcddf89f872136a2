// cublas, cublas_tf32: the vendor baselines, in the same harness as our kernels.
//
// cuBLAS is loaded at run time with dlopen rather than linked, so libmatmul.so builds and loads where cuBLAS
// is absent (CI); asking for these kernels there fails with MM_ERR_UNAVAILABLE and says how to point us at
// the library. Search order: $MATMUL_OPT_CUBLAS, libcublas.so.13, libcublas.so, then CUDA's default
// install directory. Row-major C = op(A)·op(B) is column-major C^T = op(B)^T·op(A)^T, and a row-major stored
// matrix is its column-major transpose, so the operands are passed swapped with their own op flags: cuBLAS takes
// every op combination as stored.
// `cublas` forces pure fp32 (CUBLAS_PEDANTIC_MATH); `cublas_tf32` allows TF32 tensor cores.
// Each thread gets its own handle per GPU, created on first use (never inside a timed loop) and destroyed when the
// thread exits: cuBLAS handles must not be shared by threads that run concurrently, and a handle belongs to the
// GPU that was current when it was created (its workspace lies there).
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "core/problem.h"

namespace {

// The few cuBLAS declarations we need, with the values of cublas_api.h (CUDA 13), so no cuBLAS headers are
// needed to build.
typedef struct cublas_context* cublas_handle;
enum : int { kCublasSuccess = 0, kCublasOpN = 0, kCublasOpT = 1, kPedanticMath = 2, kTf32TensorOpMath = 3 };

struct CublasApi {
    int (*create)(cublas_handle*);
    int (*destroy)(cublas_handle);
    int (*set_stream)(cublas_handle, cudaStream_t);
    int (*set_math_mode)(cublas_handle, int);
    int (*sgemm)(cublas_handle, int, int, int, int, int, const float*, const float*, int, const float*, int,
                 const float*, float*, int);
    std::string load_error;  // empty once every symbol resolved
};

template <typename F>
bool resolve(void* library, const char* symbol, F& function) {
    function = reinterpret_cast<F>(dlsym(library, symbol));
    return function != nullptr;
}

CublasApi load_cublas() {
    CublasApi api{};
    const char* override_path = std::getenv("MATMUL_OPT_CUBLAS");
    const char* candidates[] = {override_path, "libcublas.so.13", "libcublas.so",
                                "/usr/local/cuda/lib64/libcublas.so.13"};
    void* library = nullptr;
    std::string tried;
    for (const char* path : candidates) {
        if (path == nullptr || *path == '\0') continue;
        library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (library != nullptr) break;
        tried += std::string("\n  ") + dlerror();
        if (path == override_path) break;  // an explicit path that fails must not be papered over
    }
    if (library == nullptr) {
        api.load_error = "cuBLAS could not be loaded:" + tried +
                         "\nInstall the CUDA toolkit's cuBLAS or set MATMUL_OPT_CUBLAS to the path of libcublas.so";
        return api;
    }
    if (!resolve(library, "cublasCreate_v2", api.create) || !resolve(library, "cublasDestroy_v2", api.destroy) ||
        !resolve(library, "cublasSetStream_v2", api.set_stream) ||
        !resolve(library, "cublasSetMathMode", api.set_math_mode) || !resolve(library, "cublasSgemm_v2", api.sgemm))
        api.load_error = std::string("the loaded cuBLAS lacks a symbol we need: ") + dlerror();
    return api;
}

const CublasApi& cublas_api() {
    static const CublasApi api = load_cublas();  // thread-safe one-time initialisation
    return api;
}

class ThreadHandles {
  public:
    ~ThreadHandles() {
        for (cublas_handle handle : by_device_)
            if (handle != nullptr) cublas_api().destroy(handle);
    }
    // The calling thread's handle of the current GPU.
    mm_status get(cublas_handle* out) {
        int device = 0;
        MM_TRY(mm_check_cuda(cudaGetDevice(&device), "cudaGetDevice"));
        if (size_t(device) >= by_device_.size()) by_device_.resize(size_t(device) + 1, nullptr);
        cublas_handle& handle = by_device_[size_t(device)];
        if (handle == nullptr) {
            const int status = cublas_api().create(&handle);
            if (status != kCublasSuccess) {
                handle = nullptr;
                return mm_fail(MM_ERR_CUDA, "cublasCreate failed with cuBLAS status %d", status);
            }
        }
        *out = handle;
        return MM_OK;
    }

  private:
    std::vector<cublas_handle> by_device_;
};

int cublas_op(mm_op op) { return op == MM_OP_N ? kCublasOpN : kCublasOpT; }

mm_status sgemm(const GemmArgs& g, cudaStream_t stream, int math_mode, const char* name) {
    const CublasApi& api = cublas_api();
    if (!api.load_error.empty()) return mm_fail(MM_ERR_UNAVAILABLE, "%s", api.load_error.c_str());
    if (g.lda > INT32_MAX || g.ldb > INT32_MAX || g.ldc > INT32_MAX)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s: cuBLAS takes 32-bit leading dimensions (lda=%lld, ldb=%lld, ldc=%lld)",
                       name, (long long)g.lda, (long long)g.ldb, (long long)g.ldc);
    static thread_local ThreadHandles thread_handles;
    cublas_handle handle = nullptr;
    mm_status got = thread_handles.get(&handle);
    if (got != MM_OK) return got;
    const float one = 1.0f, zero = 0.0f;
    int status = api.set_stream(handle, stream);
    if (status == kCublasSuccess) status = api.set_math_mode(handle, math_mode);
    if (status == kCublasSuccess)
        status = api.sgemm(handle, cublas_op(g.op_b), cublas_op(g.op_a), g.N, g.M, g.K, &one, g.B, int(g.ldb), g.A,
                           int(g.lda), &zero, g.C, int(g.ldc));
    if (status != kCublasSuccess) return mm_fail(MM_ERR_CUDA, "%s: cublasSgemm failed with cuBLAS status %d", name, status);
    return mm_check_launch(name);
}

}  // namespace

mm_status requires_cublas() {
    const CublasApi& api = cublas_api();
    if (!api.load_error.empty()) return mm_fail(MM_ERR_UNAVAILABLE, "%s", api.load_error.c_str());
    return MM_OK;
}

mm_status launch_cublas(const GemmArgs& g, cudaStream_t stream) { return sgemm(g, stream, kPedanticMath, "cublas"); }

mm_status launch_cublas_tf32(const GemmArgs& g, cudaStream_t stream) {
    return sgemm(g, stream, kTf32TensorOpMath, "cublas_tf32");
}
