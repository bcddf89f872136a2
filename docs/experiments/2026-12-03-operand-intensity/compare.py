"""The dispatchers beside the cuBLAS of their accuracy on the report's shape grid, from report JSON files:
best_tf32 / cuBLAS TF32 and best_fp32_accurate / cuBLAS fp32 (and best / cuBLAS fp32), time ratios per shape,
the geometric mean, the least, and how many shapes reach 0.95x (1.0x for fp32-accurate).

    python3 docs/experiments/2026-12-03-operand-intensity/compare.py REPORT.json [REPORT.json ...]
"""
import json
import math
import sys

PAIRS = (("best", "cublas", 0.95), ("best_tf32", "cublas_tf32", 0.95), ("best_fp32_accurate", "cublas", 1.0))


def ratios(path):
    rows = json.load(open(path))["grid"]["rows"]
    return {f"{r['M']}x{r['N']}x{r['K']}": {k: r["ms"][b] / r["ms"][k] for k, b, _ in PAIRS if k in r["ms"]}
            for r in rows}


def main(paths):
    runs = [ratios(p) for p in paths]
    for kernel, base, goal in PAIRS:
        print(f"{kernel} / {base}:")
        for path, run in zip(paths, runs):
            values = [v[kernel] for v in run.values() if kernel in v]
            if not values:
                continue
            least = min(run, key=lambda s: run[s].get(kernel, math.inf))
            geomean = math.exp(sum(map(math.log, values)) / len(values))
            below = sorted(s for s, v in run.items() if v.get(kernel, math.inf) < goal)
            print(f"  {path}: geomean {geomean:.3f}, least {run[least][kernel]:.3f} ({least}), "
                  f"{len(values) - len(below)} of {len(values)} at {goal}x or more; below: "
                  + ", ".join(f"{s} {run[s][kernel]:.3f}" for s in below))


if __name__ == "__main__":
    main(sys.argv[1:])
