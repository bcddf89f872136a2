"""Kernels beside cuBLAS fp32 on the shapes given, with one library (MATMUL_OPT_LIBRARY names it; GPU needed):
rotated rounds in one process, each (shape, kernel) once per round; prints and saves the times of every round.

    python3 ab.py --shapes 4096x4096x16,7777x4444x8 --kernels best,shortk,cublas [--rounds 3] [--json out.json]

Timing: matmul_opt.benchmark (device-resident random inputs, CUDA events, median of `--repetitions` launches after
3 warm-ups). The HBM read bandwidth is measured once per process (matmul_opt.benchmark_read_bandwidth), for the
roofline: max(2MNK / the FP32 FMA peak, 4(MK + KN + MN) / that bandwidth).
"""
import argparse
import json
import statistics

import matmul_opt
from matmul_opt.shape_grid import roofline_ms


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", required=True)
    parser.add_argument("--kernels", default="best,cublas")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--json")
    args = parser.parse_args()
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")]
    kernels = args.kernels.split(",")
    hbm = matmul_opt.benchmark_read_bandwidth()
    peak = matmul_opt.device_info().fp32_peak_gflops
    pairs = [(shape, kernel) for shape in shapes for kernel in kernels]
    times = {f"{kernel} {'x'.join(map(str, shape))}": [] for shape, kernel in pairs}
    for r in range(args.rounds):
        for shape, kernel in pairs[r % len(pairs):] + pairs[:r % len(pairs)]:
            ms = matmul_opt.benchmark(kernel, *shape, warmup=3, repetitions=args.repetitions).ms
            times[f"{kernel} {'x'.join(map(str, shape))}"].append(ms)
    print(f"HBM read {hbm:.0f} GB/s, FP32 peak {peak:.0f} GFLOPS")
    for shape in shapes:
        name = "x".join(map(str, shape))
        floor = roofline_ms(*shape, peak, hbm)
        base = statistics.median(times[f"cublas {name}"]) if "cublas" in kernels else None
        cells = []
        for kernel in kernels:
            ms = statistics.median(times[f"{kernel} {name}"])
            ratio = f" {base / ms:5.2f}x" if base else ""
            cells.append(f"{kernel} {ms * 1e3:8.1f} us{ratio} {100 * floor / ms:5.1f}%")
        print(f"{name:18s} floor {floor * 1e3:7.1f} us | " + " | ".join(cells))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"hbm_gb_per_s": hbm, "peak_gflops": peak, "times": times}, f, indent=1)


if __name__ == "__main__":
    main()
