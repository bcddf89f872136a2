"""The fp32-accurate class on C with a small side: wgmma_3xtf32_register_split, wgmma_3xtf32, best_fp32_accurate
forced off the tensor cores (mm_fp32_accurate_force_ffma: pairwise or best), best_fp32_accurate as its table
chooses and cuBLAS fp32, on the grid's and the held-out shapes whose smaller side is 17 to 520, and the register
split's error over K against cuBLAS fp32's (GPU needed; run it once per library, MATMUL_OPT_LIBRARY naming it).

    python3 panels.py [--rounds 3] [--repetitions 10] [--draws 2] [--json out.json]
    python3 panels.py --grid --kernels best_fp32_accurate,cublas --draws 0 [--json out.json]

--grid: every shape of the grid and the held-out grid instead; --cubes: the asv kernels suite's shapes instead;
--kernels: these instead (cublas among them).

Timing: matmul_opt.benchmark (device-resident inputs, CUDA events), each round every (shape, kernel) once in a
rotated order; the table gives the median over the rounds and the ratio to cuBLAS fp32 (> 1: faster). Accuracy:
matmul_opt.report.accuracy_over_k (256 x K x 256, uniform and spread inputs, the same inputs for every kernel), in
`--draws` fresh draws.
"""
import argparse
import json
import statistics

import numpy as np

import matmul_opt
from matmul_opt import _library
from matmul_opt.report import accuracy_over_k
from matmul_opt.shape_grid import GRID, HELD_OUT
from matmul_opt.tune import PRECISION_ACCURACY_KS

FFMA = "fp32_accurate_ffma"
KERNELS = ["wgmma_3xtf32_register_split", "wgmma_3xtf32", FFMA, "best_fp32_accurate", "cublas"]


def time_one(kernel, M, N, K, repetitions):
    lib = _library.library()
    forced = kernel == FFMA
    if forced:
        _library.check(lib.mm_fp32_accurate_force_ffma(1))
    try:
        name = "best_fp32_accurate" if forced else kernel
        return matmul_opt.benchmark(name, M, N, K, warmup=3, repetitions=repetitions).ms
    finally:
        if forced:
            _library.check(lib.mm_fp32_accurate_force_ffma(0))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--draws", type=int, default=2)
    parser.add_argument("--json")
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--cubes", action="store_true")
    parser.add_argument("--kernels", default=",".join(KERNELS))
    args = parser.parse_args()
    kernels = args.kernels.split(",")
    shapes = [(s.klass, s.M, s.N, s.K) for s in GRID + HELD_OUT
              if args.grid or (17 <= min(s.M, s.N) <= 520 and s.K >= 64)]
    shapes += [] if args.grid else [("accuracy", 256, 256, k) for k in (1024, 4096)]
    if args.cubes:
        shapes = [("cube", n, n, n) for n in (512, 1024, 2048, 4096, 8192)]
        shapes += [("ragged", 1025, 1023, 1021), ("ragged", 8191, 2049, 4095)]
    times = {}
    for r in range(args.rounds):
        for klass, M, N, K in shapes:
            for kernel in kernels[r % len(kernels):] + kernels[:r % len(kernels)]:
                times.setdefault((klass, M, N, K), {}).setdefault(kernel, []).append(
                    time_one(kernel, M, N, K, args.repetitions))
    print(f"median ms over {args.rounds} rounds and the ratio to cuBLAS fp32")
    print(f"{'class':<11}{'shape':<20}" + "".join(f"{k[-28:]:>29}" for k in kernels))
    rows = []
    for (klass, M, N, K), by in times.items():
        med = {k: statistics.median(t) for k, t in by.items()}
        cells = "".join(f"{med[k]:>20.4f} {med['cublas'] / med[k]:>7.2f}x" for k in kernels)
        print(f"{klass:<11}{f'{M}x{N}x{K}':<20}{cells}", flush=True)
        rows.append({"class": klass, "shape": [M, N, K], "times": by, "median": med})
    draws = []
    for _ in range(args.draws):
        errors = accuracy_over_k(["wgmma_3xtf32_register_split", "wgmma_3xtf32", "cublas"], PRECISION_ACCURACY_KS,
                                 np.random.default_rng())
        draws.append(errors)
        for kind, by_kernel in errors.items():
            print(f"error over K, {kind} inputs (256 x K x 256), ratio to cuBLAS fp32's; K = {PRECISION_ACCURACY_KS}")
            for kernel, by_k in by_kernel.items():
                print(f"  {kernel:<30}" + "".join(f"{by_k[K] / errors[kind]['cublas'][K]:>7.2f}"
                                                  for K in PRECISION_ACCURACY_KS))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "errors": [{kind: {k: {str(K): v for K, v in by.items()} for k, by in e.items()}
                                                 for kind, e in d.items()} for d in draws]}, f, indent=1)


if __name__ == "__main__":
    main()
