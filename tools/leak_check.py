"""Long leak check (issue: hardening): 10,000 small run() calls and 1,000 benchmark() calls, reporting device
free memory (cudaMemGetInfo) and host RSS before and after. The GPU test tier runs a shorter loop."""
import os
import sys
import time

import numpy as np

import matmul_opt


def rss_mib():
    with open(f"/proc/{os.getpid()}/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def free_mib():
    return matmul_opt.device_info().free_memory_bytes / 2**20


def main(runs=10_000, benchmarks=1_000, kernel="best"):
    rng = np.random.default_rng()
    A = rng.uniform(-1, 1, (96, 80)).astype(np.float32)
    B = rng.uniform(-1, 1, (80, 112)).astype(np.float32)
    for _ in range(100):  # warm-up: lazy loading, memory pools, cuBLAS-free first calls
        matmul_opt.run(kernel, A, B)
    matmul_opt.benchmark(kernel, 128, 128, 128, warmup=0, repetitions=1)
    rows = [("after warm-up", free_mib(), rss_mib())]
    started = time.perf_counter()
    for _ in range(runs):
        matmul_opt.run(kernel, A, B)
    rows.append((f"after {runs} run() calls", free_mib(), rss_mib()))
    for _ in range(benchmarks):
        matmul_opt.benchmark(kernel, 128, 128, 128, warmup=0, repetitions=1)
    rows.append((f"after {benchmarks} benchmark() calls", free_mib(), rss_mib()))
    print(f"kernel {kernel}, {time.perf_counter() - started:.1f} s")
    print(f"{'point':<32}{'device free MiB':>16}{'host RSS MiB':>14}")
    for label, free, rss in rows:
        print(f"{label:<32}{free:>16.1f}{rss:>14.1f}")
    drift_free, drift_rss = rows[0][1] - rows[-1][1], rows[-1][2] - rows[0][2]
    print(f"device memory lost: {drift_free:.1f} MiB; RSS growth: {drift_rss:.1f} MiB")
    return 0 if drift_free < 8 and drift_rss < 16 else 1


if __name__ == "__main__":
    sys.exit(main())
