"""wgmma_3xtf32_register_split (branch tf32x3-register) against wgmma_3xtf32, best_fp32_accurate and cuBLAS fp32 on
the shape grid and held-out shapes, and its error over K against cuBLAS fp32's (GPU needed).

    python3 speed.py [--rounds 3] [--repetitions 10] [--json out.json]

Timing: matmul_opt.benchmark (device-resident inputs, CUDA events), each round every (shape, kernel) once in a
rotated order; the table gives the median over the rounds and the ratio to cuBLAS fp32 (> 1: faster). Accuracy:
matmul_opt.report.accuracy_over_k (256 x K x 256, uniform and spread inputs, the same inputs for every kernel).
"""
import argparse
import json
import statistics

import numpy as np

import matmul_opt
from matmul_opt.report import accuracy_over_k
from matmul_opt.shape_grid import GRID, HELD_OUT

KERNELS = ["wgmma_3xtf32_register_split", "wgmma_3xtf32", "best_fp32_accurate", "cublas"]
KS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--json")
    args = parser.parse_args()
    shapes = [(s.klass, s.M, s.N, s.K) for s in GRID + HELD_OUT]
    times = {}
    for r in range(args.rounds):
        for klass, M, N, K in shapes:
            for kernel in KERNELS[r % len(KERNELS):] + KERNELS[:r % len(KERNELS)]:
                ms = matmul_opt.benchmark(kernel, M, N, K, warmup=3, repetitions=args.repetitions).ms
                times.setdefault((klass, M, N, K), {}).setdefault(kernel, []).append(ms)
    print(f"median ms over {args.rounds} rounds and the ratio to cuBLAS fp32")
    print(f"{'class':<11}{'shape':<20}" + "".join(f"{k:>36}" for k in KERNELS))
    rows = []
    for (klass, M, N, K), by in times.items():
        med = {k: statistics.median(t) for k, t in by.items()}
        cells = "".join(f"{med[k]:>27.4f} {med['cublas'] / med[k]:>7.2f}x" for k in KERNELS)
        print(f"{klass:<11}{f'{M}x{N}x{K}':<20}{cells}", flush=True)
        rows.append({"class": klass, "shape": [M, N, K], "times": by, "median": med})
    errors = accuracy_over_k(["wgmma_3xtf32_register_split", "wgmma_3xtf32", "cublas"], KS, np.random.default_rng())
    for kind, by_kernel in errors.items():
        print(f"error over K, {kind} inputs (256 x K x 256), ratio to cuBLAS fp32's")
        for kernel, by_k in by_kernel.items():
            print(f"  {kernel:<30}" + "".join(f"{by_k[K] / errors[kind]['cublas'][K]:>7.2f}" for K in KS))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "errors": {kind: {k: {str(K): v for K, v in by.items()} for k, by in e.items()}
                                                for kind, e in errors.items()}}, f, indent=1)


if __name__ == "__main__":
    main()
