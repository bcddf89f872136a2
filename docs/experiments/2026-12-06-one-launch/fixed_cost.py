"""Where the time of a small, long-K product goes: per kernel, the benchmark's median (CUDA events over back-to-back
calls, matmul_opt.benchmark), the host's time to enqueue one call (mm_gemm_async on device arrays in the
benchmark's layout, 2000 calls timed before and after the final synchronisation), and, run under ncu, the
kernels each call launches (--ncu: three calls per shape and kernel, nothing timed). --sums-in-launch 0 bars split-K's
sums in the launch (mm_split_k_sums_in_launch, a library of this change); --probe takes plans in turn: "plan" (the
library's), "S" (MM_SKINNY_PROBE_SPLITS=S) or "Q:S" (also MM_SKINNY_PROBE_QUADS=Q), for a library built with the
probe's hook, which sets skinny's register plan's K slices and lane quads (X along L) from them.

    python3 fixed_cost.py --shapes 1x1x1000000,8x8x16384 --kernels best,cublas [--ncu] [--sums-in-launch 0]
"""
import argparse
import ctypes
import os
import time

import torch

import matmul_opt
from matmul_opt._library import library


def padded(n):
    return (n + 3) // 4 * 4


def operands(M, N, K):
    A = torch.rand(M, padded(K), device="cuda") * 2 - 1
    B = torch.rand(K, padded(N), device="cuda") * 2 - 1
    C = torch.empty(M, padded(N), device="cuda")
    return A, B, C


def enqueue(kernel, M, N, K, A, B, C):
    status = library().mm_gemm_async(kernel.encode(), 0, 0, M, N, K, 1.0, ctypes.c_void_p(A.data_ptr()), A.shape[1],
                                     ctypes.c_void_p(B.data_ptr()), B.shape[1], 0.0, ctypes.c_void_p(C.data_ptr()),
                                     C.shape[1], None)
    assert status == 0, status


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", required=True)
    parser.add_argument("--kernels", default="best,cublas")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--ncu", action="store_true")
    parser.add_argument("--sums-in-launch", type=int, choices=(0, 1))
    parser.add_argument("--probe", default="plan")
    args = parser.parse_args()
    torch.cuda.set_stream(torch.cuda.default_stream())
    if args.sums_in_launch is not None:
        assert library().mm_split_k_sums_in_launch(args.sums_in_launch) == 0
    print("shape kernel bench_us enqueue_us total_us")
    for shape in args.shapes.split(","):
        M, N, K = (int(x) for x in shape.split("x"))
        A, B, C = operands(M, N, K)
        for kernel, probe in [(k, p) for k in args.kernels.split(",") for p in args.probe.split(",")]:
            os.environ.pop("MM_SKINNY_PROBE_SPLITS", None)
            os.environ.pop("MM_SKINNY_PROBE_QUADS", None)
            if probe != "plan":
                *quads, os.environ["MM_SKINNY_PROBE_SPLITS"] = probe.split(":")
                if quads:
                    os.environ["MM_SKINNY_PROBE_QUADS"] = quads[0]
            if args.ncu:
                for _ in range(3):
                    enqueue(kernel, M, N, K, A, B, C)
                torch.cuda.synchronize()
                continue
            bench = matmul_opt.benchmark(kernel, M, N, K, warmup=5, repetitions=15).ms * 1e3
            for _ in range(200):
                enqueue(kernel, M, N, K, A, B, C)
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(args.calls):
                enqueue(kernel, M, N, K, A, B, C)
            t1 = time.perf_counter()
            torch.cuda.synchronize()
            t2 = time.perf_counter()
            enqueue_us, total_us = (t1 - t0) / args.calls * 1e6, (t2 - t0) / args.calls * 1e6
            print(f"{shape} {kernel}@{probe} {bench:.2f} {enqueue_us:.2f} {total_us:.2f}", flush=True)


if __name__ == "__main__":
    main()
