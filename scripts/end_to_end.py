"""End-to-end cost of a product as users call it (GPU needed; CuPy and PyTorch where installed).

    python3 scripts/end_to_end.py [--kernel best]

Wall-clock medians, after warm-up: run() on NumPy arrays at 4096^3 and 64^3 (the host path, copies included);
run() on PyTorch and CuPy arrays at 4096^3, synchronised, beside the kernel time of matmul_opt.benchmark(); and
the per-call cost of enqueueing a 64^3 product on GPU arrays, beside PyTorch's and CuPy's own `a @ b`.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import matmul_opt  # noqa: E402


def median_seconds(call, repetitions: int, synchronize=lambda: None) -> float:
    times = []
    for _ in range(repetitions):
        synchronize()
        start = time.perf_counter()
        call()
        synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def per_call_seconds(call, calls: int, synchronize) -> float:
    """Enqueue cost: `calls` back-to-back calls, synchronised once at the end, divided by the count."""
    call()
    synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        call()
    synchronize()
    return (time.perf_counter() - start) / calls


def _torch():
    import torch

    return (lambda x: torch.from_numpy(x).cuda()), torch.cuda.synchronize


def _cupy():
    import cupy

    return cupy.asarray, cupy.cuda.runtime.deviceSynchronize


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernel", default="best")
    args = parser.parse_args(argv)
    k = args.kernel
    rows = []
    rng = np.random.default_rng(0)
    big = [rng.uniform(-1, 1, (4096, 4096)).astype(np.float32) for _ in range(2)]
    small = [rng.uniform(-1, 1, (64, 64)).astype(np.float32) for _ in range(2)]
    matmul_opt.run(k, *big)
    rows.append(("NumPy 4096^3, run()", median_seconds(lambda: matmul_opt.run(k, *big), 5)))
    rows.append(("NumPy 64^3, run() per call", median_seconds(lambda: matmul_opt.run(k, *small), 200)))
    kernel_ms = matmul_opt.benchmark(k, 4096, 4096, 4096).ms
    rows.append((f"{k} kernel at 4096^3 (benchmark())", kernel_ms / 1e3))
    for label, load in (("PyTorch", _torch), ("CuPy", _cupy)):
        try:
            to_device, synchronize = load()
        except ImportError:
            print(f"{label} is not installed: its rows are left out", file=sys.stderr)
            continue
        gb, gs = [to_device(x) for x in big], [to_device(x) for x in small]
        matmul_opt.run(k, *gb)
        rows.append((f"{label} 4096^3, run() + synchronize", median_seconds(lambda: matmul_opt.run(k, *gb), 10, synchronize)))
        rows.append((f"{label} 64^3, run() per call (enqueue)", per_call_seconds(lambda: matmul_opt.run(k, *gs), 2000, synchronize)))
        rows.append((f"{label} 64^3, a @ b per call (enqueue)", per_call_seconds(lambda: gs[0] @ gs[1], 2000, synchronize)))
    print(matmul_opt.device_info().name, f"kernel {k}")
    for label, seconds in rows:
        print(f"{label:<44}{seconds * 1e3:>10.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
