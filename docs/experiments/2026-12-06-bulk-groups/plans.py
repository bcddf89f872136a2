"""skinny's bulk mainloop under forced plans: groups of Y's rows (neighbouring blocks that read the same tile of X)
by K slices, on small-side shapes, beside `best` and cuBLAS fp32 (GPU needed; a library built with
-DMM_SKINNY_PLAN_PROBE, which reads the plan from MM_SKINNY_PROBE = "force groups splits" at each call, force 1
running the bulk mainloop where the register or staged mainloops would).

    python3 plans.py --shapes 9000x24x2000,17x8000x8000 [--rounds 2] [--json out.json]

Each plan's result is first checked against a float64 product (relative Frobenius error). Timing:
matmul_opt.benchmark (device-resident random inputs, CUDA events, median of 20 launches after 3 warm-ups), rounds
rotated in one process. The roofline as in the shape grid, with the HBM read bandwidth measured here.
"""
import argparse
import json
import os
import statistics

import numpy as np

import matmul_opt
from matmul_opt.shape_grid import roofline_ms

SMS = 132


def plans(M, N, K):
    """(force, groups, splits) around the SMs' slots: groups of rows rounded up to 4, one block per SM from 12 rows
    of sums, two below; K slices of at least 8 tiles of 32."""
    S, L = min(M, N), max(M, N)
    columns = -(-L // 128)
    out = []
    for groups in range(1, min(6, -(-S // 4)) + 1):
        rows = -(-(-(-S // groups)) // 4) * 4
        if groups > 1 and -(-S // (groups - 1)) <= rows:
            continue  # the same rows as fewer groups
        slots = SMS * (2 if rows <= 8 else 1)
        for splits in range(1, 9):
            blocks = columns * groups * splits
            if K // splits < 256:
                break
            out.append((1, groups, splits))
            if blocks > slots:
                break
    return out


def error_of(kernel, A, B, ref):
    C = matmul_opt.run(kernel, A, B)
    return float(np.linalg.norm(C - ref) / np.linalg.norm(ref))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shapes", required=True)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--json")
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    hbm = matmul_opt.benchmark_read_bandwidth()
    peak = matmul_opt.device_info().fp32_peak_gflops
    print(f"HBM read {hbm:.0f} GB/s, FP32 peak {peak:.0f} GFLOPS", flush=True)
    record = {"hbm_gb_per_s": hbm, "peak_gflops": peak, "shapes": {}}
    for text in args.shapes.split(","):
        M, N, K = (int(x) for x in text.split("x"))
        runs = [("best", None), ("cublas", None), ("skinny", None)] + [("skinny", p) for p in plans(M, N, K)]
        errors = {}
        A = rng.standard_normal((M, K), dtype=np.float32)
        B = rng.standard_normal((K, N), dtype=np.float32)
        ref = A.astype(np.float64) @ B.astype(np.float64)
        for kernel, plan in runs:
            if plan:
                os.environ["MM_SKINNY_PROBE"] = " ".join(map(str, plan))
            if kernel != "cublas":
                errors[(kernel, plan)] = error_of(kernel, A, B, ref)
            os.environ.pop("MM_SKINNY_PROBE", None)
        times = {run: [] for run in runs}
        for r in range(args.rounds):
            for kernel, plan in runs[r % len(runs):] + runs[:r % len(runs)]:
                if plan:
                    os.environ["MM_SKINNY_PROBE"] = " ".join(map(str, plan))
                times[(kernel, plan)].append(matmul_opt.benchmark(kernel, M, N, K, warmup=3, repetitions=20).ms)
                os.environ.pop("MM_SKINNY_PROBE", None)
        floor = roofline_ms(M, N, K, peak, hbm)
        cublas = statistics.median(times[("cublas", None)])
        print(f"{text}: floor {floor * 1e3:.1f} us, cuBLAS {cublas * 1e3:.1f} us")
        rows = []
        for (kernel, plan), ts in times.items():
            ms = statistics.median(ts)
            name = kernel + (" g%d z%d" % plan[1:] if plan else "")
            err = errors.get((kernel, plan))
            print(f"  {name:16s} {ms * 1e3:8.1f} us {100 * floor / ms:5.1f}% {cublas / ms:5.2f}x"
                  + (f" err {err:.1e}" if err is not None else ""))
            rows.append({"kernel": kernel, "plan": plan, "ms": ts, "error": err})
        print(flush=True)
        record["shapes"][text] = {"floor_ms": floor, "runs": rows}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
