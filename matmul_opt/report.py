"""The main job (`python -m matmul_opt`): verify every kernel against float64 NumPy, time it, print a table."""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np

from . import grid_report
from ._library import MatmulError, NoDeviceError
from .accuracy import INPUT_KINDS, error_scale, relative_error, tolerance, uniform
from .api import benchmark, device_info, kernel_available, kernels, run

# The CUDA-core kernels without register tiling (about 6-8 TFLOPS on an H200): the report skips them above 8192^3
# and the asv suite at 8192^3, where one launch takes seconds.
SLOW_KERNELS = frozenset({"naive", "optimized"})


def parse_shape(text: str) -> tuple[int, int, int]:
    """'1024' -> (1024, 1024, 1024); '4095x4097x4093' -> M, N, K."""
    parts = [int(p) for p in text.lower().split("x")]
    if len(parts) == 1:
        parts *= 3
    if len(parts) != 3 or min(parts) < 1:
        raise argparse.ArgumentTypeError(f"shape must be N or MxNxK with positive integers, got {text!r}")
    return tuple(parts)


def verify(names: list[str], shape: tuple[int, int, int], rng: np.random.Generator, log) -> dict[str, float]:
    M, N, K = shape
    A, B = uniform(rng, (M, K)), uniform(rng, (K, N))
    reference, scale = A.astype(np.float64) @ B.astype(np.float64), error_scale(A, B)
    arithmetic = {info.name: info.arithmetic for info in kernels()}
    errors = {}
    log(f"Verification at {M}x{N}x{K}: relative Frobenius error against a float64 NumPy reference")
    for name in names:
        error = relative_error(run(name, A, B), reference, scale)
        bound = tolerance(arithmetic[name], K)
        errors[name] = error
        verdict = "ok" if error <= bound else "FAIL"
        log(f"  {name:<14} {error:9.2e}  (bound {bound:.1e})  {verdict}")
    return errors


# The accuracy tables: every kernel on the same fresh inputs of 256 x K x 256 at these K, of each kind the accuracy
# contracts name (uniform [-1, 1], and magnitudes spread over 2^-40 .. 2^40), its error beside cuBLAS fp32's
# (pedantic), so that the price of each arithmetic shows, from sums of one term up.
ACCURACY_KS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536)
ACCURACY_MN = 256


def accuracy_over_k(names: list[str], ks, rng: np.random.Generator) -> dict[str, dict[str, dict[int, float]]]:
    """{input kind: {kernel: {K: relative error}}}, every kernel on the same inputs of each kind and K."""
    errors: dict[str, dict[str, dict[int, float]]] = {}
    for kind, draw in INPUT_KINDS.items():
        by_kernel = errors[kind] = {name: {} for name in names}
        for K in ks:
            A, B = draw(rng, (ACCURACY_MN, K)), draw(rng, (K, ACCURACY_MN))
            reference, scale = A.astype(np.float64) @ B.astype(np.float64), error_scale(A, B)
            for name in names:
                print(f"  accuracy of {name} at K = {K}, {kind} ...", file=sys.stderr, flush=True)
                by_kernel[name][K] = relative_error(run(name, A, B), reference, scale)
    return errors


def format_accuracy(errors: dict[str, dict[int, float]], baseline: str = "cublas") -> list[str]:
    """One row per kernel: its error at each K and, where the baseline ran, the ratio to the baseline's."""
    ks = sorted({K for by_k in errors.values() for K in by_k})
    lines = [f"{'kernel':<14}" + "".join(f"{f'K={K}':>18}" for K in ks)]
    for name, by_k in errors.items():
        cells = []
        for K in ks:
            base = errors.get(baseline, {}).get(K)
            cell = f"{by_k[K]:.2e}" + (f" ({by_k[K] / base:.2f}x)" if base else "")
            cells.append(f"{cell:>18}")
        lines.append(f"{name:<14}" + "".join(cells))
    return lines


# The GPU's power state carries over from one timing to the next: right after seconds of tensor-core work, a
# power-limited kernel measures slower, and a short rest undoes it (docs/experiments/2026-12-01-report-rest.md). So
# every timing starts after a rest, which makes each figure independent of the order the kernels run in, and the
# sustained table times kernels after seconds of back-to-back launches of themselves, which is what a long run of
# large products sees.
DEFAULT_REST_S = 0.5
DEFAULT_SUSTAINED_S = 3.0


def time_all(names: list[str], shapes, repetitions: int, rest_s: float) -> list[dict]:
    rows = []
    for shape in shapes:
        M, N, K = shape
        for name in names:
            if name in SLOW_KERNELS and M * N * K > 8192**3:
                continue
            print(f"  timing {name} at {M}x{N}x{K} ...", file=sys.stderr, flush=True)
            time.sleep(rest_s)
            result = benchmark(name, M, N, K, warmup=3, repetitions=repetitions)
            rows.append({"kernel": name, "M": M, "N": N, "K": K, "ms": result.ms, "gflops": result.gflops})
    return rows


def time_sustained(names: list[str], shapes, seconds: float, repetitions: int, rest_s: float) -> list[dict]:
    """Each kernel from a rest, timed after about `seconds` of warm-up launches of itself (the warm-up count from
    one short timing). The slow kernels are left out: seconds are a few of their launches."""
    rows = []
    for M, N, K in shapes:
        for name in names:
            if name in SLOW_KERNELS:
                continue
            print(f"  sustained timing of {name} at {M}x{N}x{K} ...", file=sys.stderr, flush=True)
            once_ms = benchmark(name, M, N, K, warmup=1, repetitions=1).ms
            warmup = max(3, math.ceil(seconds * 1e3 / once_ms))
            time.sleep(rest_s)
            result = benchmark(name, M, N, K, warmup=warmup, repetitions=repetitions)
            rows.append({"kernel": name, "M": M, "N": N, "K": K, "ms": result.ms, "gflops": result.gflops,
                         "warmup_launches": warmup})
    return rows


def format_sustained(sustained: list[dict], rested: list[dict]) -> list[str]:
    """One row per sustained timing: its figure and, where the same kernel and shape were timed from a rest, the
    share of that figure it keeps."""
    by_key = {(r["kernel"], r["M"], r["N"], r["K"]): r for r in rested}
    lines = [f"{'shape':<18}{'kernel':<14}{'ms':>10}{'TFLOPS':>9}{'% rested':>10}{'warm-up':>9}"]
    for row in sustained:
        base = by_key.get((row["kernel"], row["M"], row["N"], row["K"]))
        share = f"{100 * base['ms'] / row['ms']:.1f}" if base else "-"
        shape = f"{row['M']}x{row['N']}x{row['K']}"
        lines.append(f"{shape:<18}{row['kernel']:<14}{row['ms']:>10.4f}{row['gflops'] / 1e3:>9.2f}{share:>10}"
                     f"{row['warmup_launches']:>9}")
    return lines


def format_table(rows: list[dict], peak_gflops: float) -> list[str]:
    lines = [
        f"{'shape':<18}{'kernel':<14}{'ms':>10}{'TFLOPS':>9}{'vs naive':>10}{'% cublas':>10}{'% peak':>8}"
    ]
    by_shape: dict[tuple, dict[str, dict]] = {}
    for row in rows:
        by_shape.setdefault((row["M"], row["N"], row["K"]), {})[row["kernel"]] = row
    for (M, N, K), group in by_shape.items():
        naive, cublas = group.get("naive"), group.get("cublas")
        for name, row in group.items():
            speedup = f"{naive['ms'] / row['ms']:.2f}x" if naive else "-"
            vs_cublas = f"{100 * cublas['ms'] / row['ms']:.1f}" if cublas else "-"
            peak = f"{100 * row['gflops'] / peak_gflops:.1f}" if peak_gflops else "-"
            lines.append(
                f"{f'{M}x{N}x{K}':<18}{name:<14}{row['ms']:>10.4f}{row['gflops'] / 1e3:>9.2f}"
                f"{speedup:>10}{vs_cublas:>10}{peak:>8}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m matmul_opt", description=__doc__)
    parser.add_argument("--sizes", nargs="+", type=parse_shape, default=[(1024, 1024, 1024)],
                        help="shapes to time: N for NxNxN or MxNxK (default 1024)")
    parser.add_argument("--kernels", nargs="+", help="kernels to run (default: all available)")
    parser.add_argument("--verify-size", type=parse_shape, default=(1024, 1024, 1024),
                        help="shape of the correctness check (default 1024)")
    parser.add_argument("--accuracy-k", nargs="*", type=int, default=list(ACCURACY_KS),
                        help=f"K of the accuracy tables, {ACCURACY_MN} x K x {ACCURACY_MN} (default "
                             f"{' '.join(map(str, ACCURACY_KS))}; none to leave it out)")
    parser.add_argument("--repetitions", type=int, default=10, help="timed rounds per measurement (median)")
    parser.add_argument("--rest", type=float, default=DEFAULT_REST_S,
                        help=f"seconds the GPU idles before each timing (default {DEFAULT_REST_S})")
    parser.add_argument("--sustained-sizes", nargs="*", type=parse_shape, default=[],
                        help="shapes of the sustained table: each kernel timed after seconds of its own launches "
                             "(default none)")
    parser.add_argument("--sustained-seconds", type=float, default=DEFAULT_SUSTAINED_S,
                        help=f"warm-up of a sustained timing, in seconds (default {DEFAULT_SUSTAINED_S})")
    parser.add_argument("--grid", nargs="*", metavar="KERNEL",
                        help="also time the shape grid (matmul_opt/shape_grid.py) with these kernels beside cuBLAS "
                             f"(default {' '.join(grid_report.DEFAULT_KERNELS)}), with each shape's roofline")
    parser.add_argument("--json", help="also write the measurements to this JSON file")
    args = parser.parse_args(argv)
    if args.rest < 0 or args.sustained_seconds < 0:
        parser.error(f"--rest and --sustained-seconds must be >= 0, got {args.rest:g} and {args.sustained_seconds:g}")

    try:
        device = device_info()
    except (NoDeviceError, MatmulError) as exc:
        print(f"matmul_opt: cannot run without a usable GPU: {exc}", file=sys.stderr)
        return 2
    known = [info.name for info in kernels()]
    names = args.kernels or known
    unknown = sorted(set(names) - set(known))
    if unknown:
        parser.error(f"unknown kernel(s) {', '.join(unknown)}; valid kernels: {', '.join(known)}")
    skipped = [name for name in names if not kernel_available(name)]
    names = [name for name in names if name not in skipped]

    print(f"Device: {device.name}, {device.sm_count} SMs, compute capability {device.compute_capability[0]}."
          f"{device.compute_capability[1]}, {device.sm_clock_mhz:.0f} MHz, "
          f"{device.total_memory_bytes / 2**30:.1f} GiB; FP32 FMA peak {device.fp32_peak_gflops / 1e3:.1f} TFLOPS")
    for name in skipped:
        print(f"Skipping {name}: not available here")
    started = time.perf_counter()
    rng = np.random.default_rng()
    errors = verify(names, args.verify_size, rng, print)
    accuracy = accuracy_over_k(names, args.accuracy_k, rng)
    if args.accuracy_k:
        for kind, by_kernel in accuracy.items():
            print(f"\nAccuracy over K, {kind}: relative error at {ACCURACY_MN}xKx{ACCURACY_MN} (the same inputs for "
                  "every kernel), and its ratio to cublas's (IEEE fp32, pedantic)")
            for line in format_accuracy(by_kernel):
                print(line)
    print(f"\nTiming: CUDA events, median of {args.repetitions} rounds of back-to-back launches after 3 warm-up "
          f"rounds, device-resident random inputs, each timing after {args.rest:g} s of rest")
    rows = time_all(names, args.sizes, args.repetitions, args.rest)
    for line in format_table(rows, device.fp32_peak_gflops):
        print(line)
    sustained = time_sustained(names, args.sustained_sizes, args.sustained_seconds, args.repetitions, args.rest)
    if sustained:
        print(f"\nSustained: each kernel after about {args.sustained_seconds:g} s of back-to-back launches of "
              "itself (warm-up launches in the last column), beside its figure from a rest; power-limited kernels "
              "lose clock here")
        for line in format_sustained(sustained, rows):
            print(line)
    grid = None
    if args.grid is not None:
        grid_kernels = list(dict.fromkeys((args.grid or list(grid_report.DEFAULT_KERNELS)) + [grid_report.BASELINE]))
        missing = sorted(set(grid_kernels) - set(known))
        if missing:
            parser.error(f"unknown kernel(s) {', '.join(missing)} for --grid; valid kernels: {', '.join(known)}")
        grid = grid_report.run([k for k in grid_kernels if k not in skipped], device.fp32_peak_gflops,
                               args.repetitions, args.rest)
    print(f"\n({time.perf_counter() - started:.0f} s)")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"device": device.name, "errors": errors, "accuracy_over_k": accuracy, "rest_s": args.rest,
                       "timings": rows, "sustained_seconds": args.sustained_seconds, "sustained": sustained,
                       "grid": grid},
                      handle, indent=1)
    arithmetic = {info.name: info.arithmetic for info in kernels()}
    failed = [n for n, e in errors.items() if not e <= tolerance(arithmetic[n], args.verify_size[2])]
    if failed:
        print(f"FAILED verification: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
