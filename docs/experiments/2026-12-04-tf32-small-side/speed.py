"""wgmma_tf32 of branch tf32-narrow (tiles fitted to a small side of C, C's transpose for a B stored N x K, split
tails) against its own variants forced through mm_wgmma_tf32_force, best, best_tf32 and cuBLAS TF32, in one process
(GPU needed).

    python3 speed.py [--rounds 3] [--repetitions 20] [--json out.json]

Part 1, small sides, row-major operands (matmul_opt.benchmark, device-resident inputs): every grid and held-out
shape with a side of C of at most 128 or a K from 16384, and others of the same kinds nobody tuned to. "rule" is
wgmma_tf32 as its rule chooses; "w128" its tile forced to 128 columns without split tails (main's choice wherever C
has at most 128 columns); best; best_tf32 (main's thresholds: not retuned here); cublas_tf32.
Part 2, split tails, row-major operands: the grid's and held-out shapes of the projection and ragged classes and
cubes. "rule" against "no tail" (mm_wgmma_tf32_force(0, 1, 0)), best_tf32, cublas_tf32.
Part 3, a linear layer's layout (torch tensors: x of M x K, a weight W stored N x K, C = x W^T): wgmma_tf32 reading
W as stored in C's transpose ("rule") or rounding it into a copy ("copy", mm_wgmma_tf32_force(0, 0, 1)),
best_tf32 and cublas_tf32; CUDA events around each call, after warm-up.
Each round times every (shape, variant) once, the variants in a rotated order; the tables give the median over the
rounds, each variant's fraction of the roofline (FP32 peak, HBM read bandwidth measured now) and its ratio to cuBLAS
TF32 (> 1: faster).
"""
import argparse
import json
import statistics

import matmul_opt
from matmul_opt import _library
from matmul_opt.shape_grid import GRID, HELD_OUT, roofline_ms

RULE = (0, 1, 1)  # mm_wgmma_tf32_force's arguments for the rule
SMALL_SIDE_OTHERS = [(24, 4096, 4096), (4096, 40, 4096), (60, 9000, 3000), (12, 30000, 1000), (20, 3000, 20000),
                     (10000, 20, 3000), (3000, 7, 9000), (90, 2000, 50000), (48, 48, 400000), (6000, 100, 6000)]
TAIL_OTHERS = [(4096, 4096, 4096), (3072, 3072, 3072), (8191, 2049, 4095), (1500, 9000, 6000)]
LINEAR = [(8, 4096, 4096), (30, 11008, 4096), (128, 4096, 4096), (16, 28672, 4096), (300, 4096, 11008),
          (512, 13824, 5120), (2048, 11008, 4096), (1000, 5120, 13824)]


def small_side_shapes():
    return [(s.M, s.N, s.K) for s in GRID + HELD_OUT if min(s.M, s.N) <= 128 or s.K >= 16384] + SMALL_SIDE_OTHERS


def tail_shapes():
    return [(s.M, s.N, s.K) for s in GRID + HELD_OUT if s.klass in ("projection", "ragged")] + TAIL_OTHERS


def rotated(items, r):
    return items[r % len(items):] + items[:r % len(items)]


def time_variants(lib, shapes, variants, rounds, time_one):
    """{shape: {variant: [ms per round]}}; variants: {name: (kernel, mm_wgmma_tf32_force's arguments)}."""
    times = {}
    for r in range(rounds):
        for shape in shapes:
            for v in rotated(list(variants), r):
                kernel, force = variants[v]
                _library.check(lib.mm_wgmma_tf32_force(*force))
                times.setdefault(shape, {}).setdefault(v, []).append(time_one(kernel, shape))
    _library.check(lib.mm_wgmma_tf32_force(*RULE))
    return times


def benchmark(repetitions):
    def time_one(kernel, shape):
        return matmul_opt.benchmark(kernel, *shape, warmup=3, repetitions=repetitions).ms
    return time_one


def linear_layer(repetitions):
    """Times C = x W^T on torch tensors, W stored N x K; the operands of a shape are drawn once."""
    import torch
    operands = {}

    def time_one(kernel, shape):
        M, N, K = shape
        if shape not in operands:
            operands.clear()
            operands[shape] = (torch.rand(M, K, device="cuda") * 2 - 1, torch.rand(N, K, device="cuda") * 2 - 1)
        x, w = operands[shape]
        for _ in range(3):
            matmul_opt.run(kernel, x, w.t())
        calls = []
        for _ in range(repetitions):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            matmul_opt.run(kernel, x, w.t())
            end.record()
            calls.append((start, end))
        torch.cuda.synchronize()
        return statistics.median(s.elapsed_time(e) for s, e in calls)
    return time_one


def table(title, times, info, hbm):
    variants = list(next(iter(times.values())))
    print(title)
    print(f"{'shape':<20}" + "".join(f"{v:>24}" for v in variants))
    rows = []
    for (M, N, K), by in times.items():
        floor = roofline_ms(M, N, K, info.fp32_peak_gflops, hbm)
        med = {v: statistics.median(t) for v, t in by.items()}
        cells = "".join(f"{med[v]:>10.4f} {floor / med[v]:>5.0%} {med['cublas_tf32'] / med[v]:>6.2f}x"
                        for v in variants)
        print(f"{f'{M}x{N}x{K}':<20}{cells}", flush=True)
        rows.append({"shape": [M, N, K], "floor_ms": floor, "times": by, "median": med})
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=20)
    parser.add_argument("--parts", default="small,tails,linear")
    parser.add_argument("--json")
    args = parser.parse_args()
    lib = _library.library()
    info = matmul_opt.device_info()
    hbm = matmul_opt.benchmark_read_bandwidth()
    print(f"HBM read {hbm / 1e3:.2f} TB/s, FP32 peak {info.fp32_peak_gflops / 1e3:.1f} TFLOPS; median ms over "
          f"{args.rounds} rounds, fraction of the roofline, ratio to cuBLAS TF32")
    parts = {
        "small": ("Small sides, row-major operands", small_side_shapes(), benchmark,
                  {"rule": ("wgmma_tf32", RULE), "w128": ("wgmma_tf32", (128, 1, 0)), "best": ("best", RULE),
                   "best_tf32": ("best_tf32", RULE), "cublas_tf32": ("cublas_tf32", RULE)}),
        "tails": ("Split tails, row-major operands", tail_shapes(), benchmark,
                  {"rule": ("wgmma_tf32", RULE), "no tail": ("wgmma_tf32", (0, 1, 0)),
                   "best_tf32": ("best_tf32", RULE), "cublas_tf32": ("cublas_tf32", RULE)}),
        "linear": ("A linear layer's layout, C = x W^T (W stored N x K)", LINEAR, linear_layer,
                   {"rule": ("wgmma_tf32", RULE), "copy": ("wgmma_tf32", (0, 0, 1)),
                    "best_tf32": ("best_tf32", RULE), "cublas_tf32": ("cublas_tf32", RULE)}),
    }
    results = {"hbm_gb_per_s": hbm}
    for name in args.parts.split(","):
        title, shapes, timer, variants = parts[name]
        times = time_variants(lib, shapes, variants, args.rounds, timer(args.repetitions))
        results[name] = table(title, times, info, hbm)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
