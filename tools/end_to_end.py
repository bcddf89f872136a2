"""End-to-end cost of a product as users call it, with the issue's targets (GPU needed; CuPy and PyTorch rows where
they are installed).

    python3 -m tools.end_to_end [--kernel best] [--json FILE]

Rows: the kernel time of matmul_opt.benchmark() at 4096^3; one synchronised run() at 4096^3 and 64^3 from NumPy
arrays, pinned arrays (matmul_opt.empty_pinned, out= pinned) and PyTorch and CuPy tensors; the GPU tensors at 4096^3
also as GPU time between two of their library's CUDA events, around one call and around ten in a row (benchmark()'s
method); the per-call cost of back-to-back 64^3 products on GPU arrays, beside PyTorch's and CuPy's own `a @ b`
(benchmarks/end_to_end.py measures them all).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import matmul_opt
from benchmarks.end_to_end import (
    SOURCES, Operands, available, call_repetitions, call_seconds, enqueue_seconds, event_seconds)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.end_to_end", description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernel", default="best")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args(argv)
    k = args.kernel
    kernel_s = matmul_opt.benchmark(k, 4096, 4096, 4096).ms / 1e3
    rows = [(f"{k} kernel at 4096^3 (benchmark())", kernel_s, None)]  # (label, seconds, target seconds or None)
    targets = {("numpy", 4096): 8e-3, ("pinned", 4096): 5e-3, ("numpy", 64): 30e-6,
               ("torch", 4096): kernel_s * 1.03, ("cupy", 4096): kernel_s * 1.03}
    for source in SOURCES:
        if not available(source):
            print(f"{source} is not installed: its rows are left out", file=sys.stderr)
            continue
        for n in (4096, 64):
            operands = Operands(source, n, k)
            rows.append((f"{source} {n}^3, run() synchronised", call_seconds(operands, call_repetitions(n)),
                         targets.get((source, n))))
            if source in ("torch", "cupy") and n == 4096:
                rows.append((f"{source} {n}^3, one run(), GPU time (events)", event_seconds(operands),
                             targets[(source, n)]))
                rows.append((f"{source} {n}^3, run() back to back (events)", event_seconds(operands, calls=10),
                             targets[(source, n)]))
            if source in ("torch", "cupy") and n == 64:
                rows.append((f"{source} 64^3, run() per call (back to back)",
                             enqueue_seconds(operands.call, operands.synchronize), 15e-6))
                rows.append((f"{source} 64^3, a @ b per call (back to back)",
                             enqueue_seconds(operands.library_matmul, operands.synchronize), None))
    print(matmul_opt.device_info().name, f"kernel {k}")
    print(f"{'':<46}{'measured':>12}{'target':>12}")
    for label, seconds, target in rows:
        mark = "" if target is None else ("  met" if seconds <= target else "  missed")
        target_text = "" if target is None else f"{target * 1e3:.3f} ms"
        print(f"{label:<46}{seconds * 1e3:>9.3f} ms{target_text:>12}{mark}")
    if args.json:
        Path(args.json).write_text(json.dumps([{"label": l, "seconds": s, "target_seconds": t} for l, s, t in rows],
                                              indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
