"""The kernels of one call of `best` in the benchmark's layout (rows padded to 4 floats), as PyTorch's profiler
records them: name, stream, start and duration in microseconds from the first kernel's start. Three calls per
shape after a warm-up; the last is printed.

    python3 timeline.py 3001x257x5003 [...]
"""
import ctypes
import sys

import torch

from matmul_opt._library import library


def padded(n):
    return (n + 3) // 4 * 4


def main():
    for shape in sys.argv[1:]:
        M, N, K = (int(x) for x in shape.split("x"))
        A = torch.rand(M, padded(K), device="cuda") * 2 - 1
        B = torch.rand(K, padded(N), device="cuda") * 2 - 1
        C = torch.empty(M, padded(N), device="cuda")
        stream = torch.cuda.current_stream()

        def call():
            status = library().mm_gemm_async(b"best", 0, 0, M, N, K, 1.0, ctypes.c_void_p(A.data_ptr()), A.shape[1],
                                             ctypes.c_void_p(B.data_ptr()), B.shape[1], 0.0,
                                             ctypes.c_void_p(C.data_ptr()), C.shape[1],
                                             ctypes.c_void_p(stream.cuda_stream))
            assert status == 0

        for _ in range(5):
            call()
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as profile:
            for _ in range(3):
                call()
                torch.cuda.synchronize()
        kernels = [e for e in profile.profiler.kineto_results.events()
                   if e.device_type() == torch.autograd.DeviceType.CUDA and "emcpy" not in e.name()]
        calls = len(kernels) // 3
        last = kernels[-calls:]
        t0 = min(e.start_ns() for e in last)
        for e in sorted(last, key=lambda e: e.start_ns()):
            print(f"{shape} stream={e.device_resource_id()} start={(e.start_ns() - t0) / 1e3:.1f} "
                  f"us={e.duration_ns() / 1e3:.1f} {e.name()[:90]}", flush=True)


if __name__ == "__main__":
    main()
