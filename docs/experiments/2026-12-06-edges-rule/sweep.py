"""A cut's edges beside its bulk or after it (mm_best_edges_beside), on products whose tiles leave a few rows or
columns: best's benchmark time with each, alternating within one process, best of three rounds of
matmul_opt.benchmark; and whether best cuts the product (its kernels on a second stream, from PyTorch's profiler).
Products best does not cut print "no".

    python3 sweep.py
"""
import ctypes
import itertools

import torch

import matmul_opt
from matmul_opt import _library


def padded(n):
    return (n + 3) // 4 * 4


def shapes():
    sides = (513, 1025, 2049, 3001, 4097, 6145)
    narrow = (129, 257)
    depths = (515, 1000, 2000, 5003)
    for M, N, K in itertools.product(sides, sides, depths):
        if M <= N and M * N * K <= 6e10:
            yield M, N, K
    for (M, N), K in itertools.product(itertools.product(sides, narrow), (1000, 5003)):
        yield M, N, K
        yield N, M, K


def cut_streams(M, N, K):
    """The number of streams one call of best ran kernels on (2 where it cut and ran its edges beside the bulk)."""
    A = torch.rand(M, padded(K), device="cuda")
    B = torch.rand(K, padded(N), device="cuda")
    C = torch.empty(M, padded(N), device="cuda")
    stream = torch.cuda.current_stream()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as profile:
        _library.check(_library.library().mm_gemm_async(
            b"best", 0, 0, M, N, K, 1.0, ctypes.c_void_p(A.data_ptr()), A.shape[1], ctypes.c_void_p(B.data_ptr()),
            B.shape[1], 0.0, ctypes.c_void_p(C.data_ptr()), C.shape[1], ctypes.c_void_p(stream.cuda_stream)))
        torch.cuda.synchronize()
    return len({e.device_resource_id() for e in profile.profiler.kineto_results.events()
                if e.device_type() == torch.autograd.DeviceType.CUDA and "emset" not in e.name()})


def main():
    lib = _library.library()
    print("product cut after_us beside_us beside/after")
    for M, N, K in shapes():
        if cut_streams(M, N, K) < 2:
            print(f"{M}x{N}x{K} no", flush=True)
            continue
        times = {0: [], 1: []}
        for _ in range(3):
            for beside in (0, 1):
                _library.check(lib.mm_best_edges_beside(beside))
                times[beside].append(matmul_opt.benchmark("best", M, N, K, warmup=3, repetitions=9).ms * 1e3)
        _library.check(lib.mm_best_edges_beside(1))
        after, beside = min(times[0]), min(times[1])
        print(f"{M}x{N}x{K} yes {after:.1f} {beside:.1f} {beside / after:.3f}", flush=True)


if __name__ == "__main__":
    main()
