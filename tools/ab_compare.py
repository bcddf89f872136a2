"""A/B of two builds of libmatmul.so on this GPU: every kernel at every asv shape, the builds in alternating
processes, round after round (GPU needed).

    python3 -m tools.ab_compare OLD.so NEW.so [--rounds 3] [--threshold 0.03] [--kernels a,b] [--json out.json]

Each round runs one process per library, in alternating order (old first in even rounds, new first in odd ones),
and each process times every kernel both libraries register at the asv suite's shapes with matmul_opt.benchmark
(CUDA events, the asv suite's warm-up and repetitions). Per (kernel, shape) it prints the median time of each
library over the rounds and their ratio, and exits 1 when any kernel's median is more than `threshold` slower
in NEW. Alternating processes spread the drift of the GPU's speed over both libraries.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(kernels: list[str]) -> dict[str, float]:
    """{"kernel shape": ms} in this process, for the library MATMUL_OPT_LIBRARY names."""
    import matmul_opt
    from benchmarks import bench_kernels
    from matmul_opt.report import parse_shape

    times = {}
    for kernel in kernels:
        if not matmul_opt.kernel_available(kernel):
            continue
        for shape in bench_kernels.SHAPES:
            if kernel in bench_kernels.SLOW_KERNELS and shape in bench_kernels.SLOW_SKIPPED_SHAPES:
                continue
            M, N, K = parse_shape(shape)
            times[f"{kernel} {shape}"] = matmul_opt.benchmark(kernel, M, N, K, warmup=bench_kernels.WARMUP,
                                                              repetitions=bench_kernels.REPETITIONS).ms
    return times


def run_library(library: str, kernels: list[str]) -> dict[str, float]:
    child = subprocess.run([sys.executable, "-m", "tools.ab_compare", "--measure", ",".join(kernels)],
                           capture_output=True, text=True, env=dict(os.environ, MATMUL_OPT_LIBRARY=library), cwd=ROOT)
    if child.returncode != 0:
        sys.exit(f"measuring {library} failed:\n{child.stderr}")
    return json.loads(child.stdout.strip().splitlines()[-1])


def kernels_of(library: str) -> list[str]:
    code = "import matmul_opt; print(','.join(matmul_opt.kernel_names()))"
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                           env=dict(os.environ, MATMUL_OPT_LIBRARY=library))
    if child.returncode != 0:
        sys.exit(f"loading {library} failed:\n{child.stderr}")
    return child.stdout.strip().split(",")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.ab_compare", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("old", nargs="?", help="the baseline build of libmatmul.so")
    parser.add_argument("new", nargs="?", help="the build to check")
    parser.add_argument("--rounds", type=int, default=3, help="processes per library")
    parser.add_argument("--threshold", type=float, default=0.03, help="allowed slowdown of a median (0.03 = 3%%)")
    parser.add_argument("--json", help="also write every round's times to this file")
    parser.add_argument("--kernels", help="comma-separated kernels to time (default: every kernel both register)")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # a child process: time these kernels, print JSON
    args = parser.parse_args(argv)
    if args.measure is not None:
        print(json.dumps(measure(args.measure.split(","))))
        return 0
    if not args.old or not args.new:
        parser.error("give the two libraries to compare")
    kernels = [k for k in kernels_of(args.old) if k in set(kernels_of(args.new))]
    if args.kernels:
        kernels = [k for k in kernels if k in set(args.kernels.split(","))]
    rounds: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for r in range(args.rounds):
        for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
            rounds[side].append(run_library(getattr(args, side), kernels))
            print(f"round {r + 1}: {side} done", file=sys.stderr, flush=True)
    keys = [k for k in rounds["old"][0] if all(k in t for side in rounds.values() for t in side)]
    slower = []
    print(f"{'kernel':<14}{'shape':<18}{'old ms':>10}{'new ms':>10}{'new/old':>9}  (medians of {args.rounds} rounds)")
    for key in keys:
        old = statistics.median(t[key] for t in rounds["old"])
        new = statistics.median(t[key] for t in rounds["new"])
        kernel, shape = key.split()
        flag = "  SLOWER" if new > old * (1 + args.threshold) else ""
        print(f"{kernel:<14}{shape:<18}{old:>10.4f}{new:>10.4f}{new / old:>9.3f}{flag}")
        if flag:
            slower.append(key)
    print(f"{len(keys)} kernel-shape pairs; {len(slower)} more than {args.threshold:.0%} slower in NEW"
          + (f": {', '.join(slower)}" if slower else ""))
    if args.json:
        Path(args.json).write_text(json.dumps({"old": args.old, "new": args.new, "rounds": rounds}, indent=1))
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())
