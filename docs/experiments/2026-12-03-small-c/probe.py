"""Where the time of a small product with a long K goes: each kernel's time per call in back-to-back launches
(matmul_opt.benchmark), the host's time per enqueue (mm_gemm_async on GPU arrays, 200 calls without waiting,
wall clock), and the same 200 calls timed by CUDA events on their stream (GPU-bound or host-bound).

    python3 docs/experiments/2026-12-03-small-c/probe.py [--kernels best skinny longk cublas] [--shapes MxNxK ...]

Kernel durations come from Nsight Compute over one call each (ncu_calls below, run under ncu)."""
import argparse
import statistics
import sys
import time

import cupy as cp

import matmul_opt
from matmul_opt._library import check, library

SHAPES = ["1x1x1000000", "1x1x131072", "4x4x131072", "8x8x16384", "16x16x500000", "32x32x300000", "1x32x400000",
          "1x4096x4096", "64x64x1048576", "1x1x1024"]
CALLS = 200


def operands(M, N, K):
    A = cp.random.uniform(-1, 1, (M, K)).astype(cp.float32)
    B = cp.random.uniform(-1, 1, (K, N)).astype(cp.float32)
    return A, B, cp.empty((M, N), dtype=cp.float32)


def enqueue(lib, kernel, M, N, K, A, B, C, stream):
    check(lib.mm_gemm_async(kernel.encode(), 0, 0, M, N, K, 1.0, A.data.ptr, K, B.data.ptr, N, 0.0, C.data.ptr, N,
                            stream.ptr))


def per_call(lib, kernel, M, N, K):
    """(host us per enqueue, stream us per call by events) over CALLS calls, medians of 3 rounds."""
    A, B, C = operands(M, N, K)
    stream = cp.cuda.Stream(non_blocking=True)
    for _ in range(5):
        enqueue(lib, kernel, M, N, K, A, B, C, stream)
    stream.synchronize()
    host, device = [], []
    for _ in range(3):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record(stream)
        t0 = time.perf_counter()
        for _ in range(CALLS):
            enqueue(lib, kernel, M, N, K, A, B, C, stream)
        host.append((time.perf_counter() - t0) / CALLS * 1e6)
        stop.record(stream)
        stop.synchronize()
        device.append(cp.cuda.get_elapsed_time(start, stop) / CALLS * 1e3)
    return statistics.median(host), statistics.median(device)


def ncu_calls(kernels, shapes):
    """One call per kernel and shape after a warm-up call, for Nsight Compute to time each launch."""
    lib = library()
    stream = cp.cuda.Stream(non_blocking=True)
    for shape in shapes:
        M, N, K = map(int, shape.split("x"))
        A, B, C = operands(M, N, K)
        for kernel in kernels:
            enqueue(lib, kernel, M, N, K, A, B, C, stream)
            stream.synchronize()
            print(f"MARK {shape} {kernel}", flush=True)
            cp.cuda.nvtx.RangePush(f"{shape} {kernel}")
            enqueue(lib, kernel, M, N, K, A, B, C, stream)
            stream.synchronize()
            cp.cuda.nvtx.RangePop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", nargs="+", default=["best", "skinny", "longk", "cublas"])
    parser.add_argument("--shapes", nargs="+", default=SHAPES)
    parser.add_argument("--ncu", action="store_true", help="one call each, for Nsight Compute")
    args = parser.parse_args()
    if args.ncu:
        return ncu_calls(args.kernels, args.shapes)
    lib = library()
    print("us per call: benchmark = back-to-back launches (events); host = wall clock per mm_gemm_async enqueue;"
          " stream = the same enqueues timed by events")
    print(f"{'shape':>16} {'kernel':>8} {'benchmark':>10} {'host':>8} {'stream':>8}")
    for shape in args.shapes:
        M, N, K = map(int, shape.split("x"))
        for kernel in args.kernels:
            bench = matmul_opt.benchmark(kernel, M, N, K, warmup=3, repetitions=10).ms * 1e3
            host, device = per_call(lib, kernel, M, N, K)
            print(f"{shape:>16} {kernel:>8} {bench:10.1f} {host:8.1f} {device:8.1f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
