// Which GPU a call's pointers and stream belong to (device_checks.h), and the entry points that ask it.
#include "api/device_checks.h"

#include "api/validate.h"

mm_status device_of(const char* name, const void* p, int* device) {
    cudaPointerAttributes attributes{};
    const cudaError_t err = cudaPointerGetAttributes(&attributes, p);
    if (err != cudaSuccess) return mm_check_cuda(err, name);
    if (attributes.type != cudaMemoryTypeDevice && attributes.type != cudaMemoryTypeManaged)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "%s is not device memory (a host pointer?); the _host entry points "
                                                "take host arrays", name);
    *device = attributes.device;
    return MM_OK;
}

mm_status common_device(const mm_gemm_problem& p, int* device) {
    MM_TRY(device_of("C", p.C, device));
    if (p.K == 0) return MM_OK;
    int device_a = 0, device_b = 0;
    MM_TRY(device_of("A", p.A, &device_a));
    MM_TRY(device_of("B", p.B, &device_b));
    if (device_a != *device || device_b != *device)
        return mm_fail(MM_ERR_INVALID_ARGUMENT, "the operands lie on different GPUs (A on %d, B on %d, C on %d)",
                       device_a, device_b, *device);
    return MM_OK;
}

mm_status stream_not_capturing(cudaStream_t stream, const char* kernel) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    const cudaError_t err = cudaStreamIsCapturing(stream, &capture);
    if (err != cudaSuccess) cudaGetLastError();  // not sticky; left set, it would surface at the next launch
    if (err != cudaSuccess && err != cudaErrorStreamCaptureImplicit) return mm_check_cuda(err, "cudaStreamIsCapturing");
    if (err == cudaSuccess && capture == cudaStreamCaptureStatusNone) return MM_OK;
    return mm_fail(MM_ERR_UNAVAILABLE, "%s: the stream is capturing a CUDA graph, which the library does not record; "
                   "run the product outside the capture", kernel);
}

// A stream of another GPU cannot run the operands' product (a launch there fails). The default streams stand for
// the current GPU's, and the entry makes the operands' GPU current first.
mm_status stream_on_device(cudaStream_t stream, int device) {
    if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return MM_OK;
    int stream_device = 0;
    MM_TRY(mm_check_cuda(cudaStreamGetDevice(stream, &stream_device), "cudaStreamGetDevice"));
    if (stream_device != device)
        return mm_fail(MM_ERR_INVALID_ARGUMENT,
                       "the stream belongs to GPU %d, the operands lie on GPU %d; pass a stream of GPU %d, or none",
                       stream_device, device, device);
    return MM_OK;
}

extern "C" {

mm_status mm_pointer_device(const void* p, int* device) {
    if (device == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "device is a null pointer");
    MM_TRY(require_device());
    return device_of("the pointer", p, device);
}

mm_status mm_current_device(int* device) {
    if (device == nullptr) return mm_fail(MM_ERR_INVALID_ARGUMENT, "device is a null pointer");
    MM_TRY(require_device());
    return mm_check_cuda(cudaGetDevice(device), "cudaGetDevice");
}

}  // extern "C"
