"""best on the small-side shapes, as chosen and forced to the skinny kernel as planned and to its streamed schedule,
beside cuBLAS fp32 in the same process (GPU needed).

    python3 speed.py [--rounds 3] [--repetitions 20] [--json out.json]

Shapes: every grid and held-out shape with a side of C of at most 24, and others of the same kinds nobody tuned to.
Each round times every (shape, variant) once, the variants in a rotated order; the table gives the median over the
rounds, each variant's time as a fraction of the roofline (FP32 peak, HBM read bandwidth measured now), and its
ratio to cuBLAS.
"""
import argparse
import json
import os
import statistics

import matmul_opt
from matmul_opt import _library
from matmul_opt.shape_grid import GRID, HELD_OUT, roofline_ms
from matmul_opt.tune import config_names

OTHERS = [(2, 4096, 4096), (4, 8192, 8192), (16, 2048, 8192), (24, 4096, 4096), (1, 8192, 1024), (8, 1024, 1024),
          (20, 3000, 20000), (12, 30000, 1000), (5, 300, 100000), (4096, 8, 4096), (10000, 20, 3000),
          (6, 2500, 7000), (3000, 7, 9000), (1, 20000, 20000), (22, 6000, 6000), (4, 12000, 16384),
          (2, 8000, 30000), (20000, 3, 17000)]


def shapes():
    grid = [(s.M, s.N, s.K) for s in GRID + HELD_OUT if min(s.M, s.N) <= 24]
    return grid + OTHERS


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--json")
    args = parser.parse_args()
    lib = _library.library()
    names = config_names()
    streamed = names.index("skinny_streamed")
    variants = {"best": (None, ""), "planned": (names.index("skinny"), ""), "streamed": (streamed, ""),
                "aligned": (streamed, "aligned"), "per-sm": (streamed, "sms"), "cublas": (None, "")}
    info = matmul_opt.device_info()
    hbm = matmul_opt.benchmark_read_bandwidth()
    times = {}
    for r in range(args.rounds):
        for M, N, K in shapes():
            order = list(variants)
            order = order[r % len(order):] + order[:r % len(order)]
            for v in order:
                kernel = "cublas" if v == "cublas" else "best"
                config, blocks = variants[v]
                os.environ["MM_SKINNY_STREAMED_BLOCKS"] = blocks
                _library.check(lib.mm_best_force(-1 if config is None else config, 1))
                ms = matmul_opt.benchmark(kernel, M, N, K, warmup=3, repetitions=args.repetitions).ms
                times.setdefault(f"{M}x{N}x{K}", {}).setdefault(v, []).append(ms)
        _library.check(lib.mm_best_force(-1, 1))
    print(f"HBM read {hbm / 1e3:.2f} TB/s, FP32 peak {info.fp32_peak_gflops / 1e3:.1f} TFLOPS; "
          f"median ms over {args.rounds} rounds; roofline fraction; ratio to cuBLAS")
    print(f"{'shape':<20}" + "".join(f"{v:>23}" for v in variants))
    rows = []
    for shape, by in times.items():
        M, N, K = map(int, shape.split("x"))
        floor = roofline_ms(M, N, K, info.fp32_peak_gflops, hbm)
        med = {v: statistics.median(t) for v, t in by.items()}
        cells = "".join(f"{med[v]:>9.4f} {floor / med[v]:>5.0%} {med['cublas'] / med[v]:>6.2f}x" for v in variants)
        print(f"{shape:<20}{cells}")
        rows.append({"shape": shape, "floor_ms": floor, "times": by, "median": med})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"hbm_gb_per_s": hbm, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
