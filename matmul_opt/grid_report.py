"""The report's shape-grid table (`python -m matmul_opt --grid`): kernels beside cuBLAS on every shape of the grid,
with the roofline of each shape and each kernel's share of it."""
from __future__ import annotations

import math
import sys
import time

from .api import benchmark, benchmark_read_bandwidth
from .shape_grid import GRID, GridShape, bound_by, roofline_ms

BASELINE = "cublas"
DEFAULT_KERNELS = ("best", BASELINE)
# The roofline target holds where the floor is the bytes term and at least this long (shorter products are bound
# by launch and tail costs as much as by HBM).
ROOFLINE_MIN_FLOOR_MS = 0.010


def measure(kernels, shapes: list[GridShape] = GRID, repetitions: int = 10, rest_s: float = 0.0) -> list[dict]:
    """[{klass, M, N, K, ms: {kernel: median ms}}] per shape."""
    rows = []
    for shape in shapes:
        times = {}
        for kernel in kernels:
            print(f"  grid: {kernel} at {shape.name}", file=sys.stderr, flush=True)
            time.sleep(rest_s)
            times[kernel] = benchmark(kernel, shape.M, shape.N, shape.K, warmup=3, repetitions=repetitions).ms
        rows.append({"klass": shape.klass, "M": shape.M, "N": shape.N, "K": shape.K, "ms": times})
    return rows


def summarise(rows: list[dict], peak_gflops: float, hbm_gb_per_s: float, kernel: str = "best") -> dict:
    """What the grid says of `kernel`: its ratio to cuBLAS (geometric mean and least, with the shape), and its share
    of the roofline where the floor is bytes and at least ROOFLINE_MIN_FLOOR_MS."""
    ratios, shares = [], []
    for row in rows:
        shape = f"{row['M']}x{row['N']}x{row['K']}"
        if BASELINE in row["ms"] and kernel in row["ms"]:
            ratios.append((row["ms"][BASELINE] / row["ms"][kernel], shape))
        floor = roofline_ms(row["M"], row["N"], row["K"], peak_gflops, hbm_gb_per_s)
        if (kernel in row["ms"] and floor >= ROOFLINE_MIN_FLOOR_MS
                and bound_by(row["M"], row["N"], row["K"], peak_gflops, hbm_gb_per_s) == "bytes"):
            shares.append((floor / row["ms"][kernel], shape))
    return {
        "kernel": kernel,
        "geomean_vs_cublas": math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios)) if ratios else None,
        "least_vs_cublas": min(ratios) if ratios else None,
        "bytes_bound_shapes": len(shares),
        "least_roofline_share": min(shares) if shares else None,
        "roofline_shares": shares,
    }


def format_grid(rows: list[dict], peak_gflops: float, hbm_gb_per_s: float) -> list[str]:
    kernels = [k for k in rows[0]["ms"] if k != BASELINE] if rows else []
    header = f"{'class':<11}{'shape':<20}{'bound':>6}{'floor us':>10}{'cublas us':>11}{'% roof':>8}"
    header += "".join(f"{k + ' us':>14}{'vs cublas':>10}{'% roof':>8}" for k in kernels)
    lines = [header]
    for row in rows:
        M, N, K = row["M"], row["N"], row["K"]
        floor = roofline_ms(M, N, K, peak_gflops, hbm_gb_per_s)
        base = row["ms"].get(BASELINE)
        line = (f"{row['klass']:<11}{f'{M}x{N}x{K}':<20}{bound_by(M, N, K, peak_gflops, hbm_gb_per_s):>6}"
                f"{1e3 * floor:>10.1f}")
        line += f"{1e3 * base:>11.1f}{100 * floor / base:>8.1f}" if base else f"{'-':>11}{'-':>8}"
        for kernel in kernels:
            ms = row["ms"][kernel]
            ratio = f"{base / ms:.3f}" if base else "-"
            line += f"{1e3 * ms:>14.1f}{ratio:>10}{100 * floor / ms:>8.1f}"
        lines.append(line)
    return lines


def run(kernels, peak_gflops: float, repetitions: int, rest_s: float, log=print) -> dict:
    """Measures the HBM read bandwidth and the grid, prints the table and its summary; returns both."""
    hbm = benchmark_read_bandwidth()
    rows = measure(kernels, GRID, repetitions, rest_s)
    log(f"\nShape grid: {len(rows)} shapes in 6 classes (matmul_opt/shape_grid.py); floor = max(FLOPs / FP32 peak "
        f"{peak_gflops / 1e3:.1f} TFLOPS, 4(MK + KN + MN) bytes / HBM read {hbm / 1e3:.2f} TB/s measured now); "
        "% roof = floor / time")
    for line in format_grid(rows, peak_gflops, hbm):
        log(line)
    summaries = [summarise(rows, peak_gflops, hbm, kernel) for kernel in kernels if kernel != BASELINE]
    for s in summaries:
        least, shape = s["least_vs_cublas"] or (float("nan"), "-")
        share, share_shape = s["least_roofline_share"] or (float("nan"), "-")
        log(f"{s['kernel']}: geometric mean {s['geomean_vs_cublas']:.3f}x cuBLAS, least {least:.3f}x ({shape}); "
            f"on the {s['bytes_bound_shapes']} shapes bound by bytes with a floor of at least "
            f"{1e3 * ROOFLINE_MIN_FLOOR_MS:.0f} us, at least {100 * share:.1f}% of the roofline ({share_shape})")
    return {"hbm_gb_per_s": hbm, "rows": rows, "summaries": summaries}
