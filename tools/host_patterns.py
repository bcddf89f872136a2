"""run() from NumPy as scripts call it: each pattern of benchmarks/host_patterns.py in a fresh process, and again in
one that imported PyTorch first, call by call (GPU needed).

    python3 -m tools.host_patterns [--sizes 4096 1024] [--calls 8] [--json FILE]

Prints each pattern's per-call milliseconds and the slowest call after the first, with the issue's targets (8 ms at
4096^3, 1.2 ms at 1024^3), and how much memory the library held at the end (matmul_opt.memory_held(), all keys).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from benchmarks.host_patterns import DIAGNOSTICS, PATTERNS, worst_after_first

TARGET_MS = {4096: 8.0, 1024: 1.2}

_ONE = (
    "import json, sys\n"
    "if sys.argv[4] == 'torch':\n"
    "    import torch\n"
    "from benchmarks.host_patterns import call_ms\n"
    "import matmul_opt\n"
    "times = call_ms(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))\n"
    "print(json.dumps({'ms': times, 'held_bytes': sum(matmul_opt.memory_held().values())}))\n"
)


def one_process(pattern: str, n: int, calls: int, with_torch: bool) -> dict:
    """The pattern's per-call times, measured in a new interpreter."""
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run([sys.executable, "-c", _ONE, pattern, str(n), str(calls), "torch" if with_torch else "-"],
                         capture_output=True, text=True, cwd=root, timeout=300)
    if run.returncode != 0:
        raise RuntimeError(f"{pattern} at {n}: {run.stderr.strip().splitlines()[-1:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.host_patterns", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 1024])
    parser.add_argument("--calls", type=int, default=8)
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args(argv)
    torch_options = [False, True] if importlib.util.find_spec("torch") is not None else [False]
    rows = []
    print(f"{'size':>5} {'pattern':<14} {'process':<13} {'worst ms':>8} {'target':>6}    held MiB  per call (ms)")
    for n in args.sizes:
        for pattern in PATTERNS + DIAGNOSTICS:
            for with_torch in torch_options:
                got = one_process(pattern, n, args.calls, with_torch)
                worst = worst_after_first(got["ms"])
                target = TARGET_MS.get(n)
                verdict = "" if target is None or pattern in DIAGNOSTICS else ("ok" if worst <= target else "MISS")
                print(f"{n:>5} {pattern:<14} {'after torch' if with_torch else 'fresh':<13} {worst:8.2f} {verdict:>6}  "
                      f"{got['held_bytes'] / 2**20:10.0f}  " + " ".join(f"{t:.1f}" for t in got["ms"]), flush=True)
                rows.append({"size": n, "pattern": pattern, "torch": with_torch, **got})
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
