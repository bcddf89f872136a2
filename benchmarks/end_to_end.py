"""End-to-end costs of run() as users call it, shared by the asv tracks (bench_end_to_end.py) and the report tool
(tools/end_to_end.py). GPU needed; the PyTorch and CuPy sources need those libraries.

A source is where the operands live: "numpy" (ordinary host arrays: the streamed host path), "pinned"
(matmul_opt.empty_pinned arrays, the result into a pinned out=), "torch" and "cupy" (GPU arrays). Operands are random
in [-1, 1], made once per source and size.
"""
from __future__ import annotations

import importlib.util
import statistics
import time

import numpy as np

import matmul_opt

SOURCES = ["numpy", "pinned", "torch", "cupy"]


def available(source: str) -> bool:
    """Whether the library a source needs is installed (NumPy always is)."""
    return source not in ("torch", "cupy") or importlib.util.find_spec(source) is not None


def call_repetitions(n: int) -> int:
    """Calls that call_seconds takes the median of at n^3: many for latency-bound sizes, a few for the large."""
    return 500 if n <= 64 else 9


class Operands:
    """A, B (and out= for "pinned") at n x n x n from `source`, with the call and the wait its timing needs."""

    def __init__(self, source: str, n: int, kernel: str = "best"):
        rng = np.random.default_rng(n)
        host = [rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2)]
        self.source, self.kernel, self.out, self.synchronize = source, kernel, None, lambda: None
        if source == "numpy":
            self.arrays = host
        elif source == "pinned":
            self.arrays = [matmul_opt.empty_pinned((n, n)) for _ in range(2)]
            for pinned, values in zip(self.arrays, host):
                pinned[...] = values
            self.out = matmul_opt.empty_pinned((n, n))
        elif source == "torch":
            import torch

            self.arrays = [torch.from_numpy(x).cuda() for x in host]
            self.synchronize = torch.cuda.synchronize
            self.library_matmul = lambda: self.arrays[0] @ self.arrays[1]
        elif source == "cupy":
            import cupy

            self.arrays = [cupy.asarray(x) for x in host]
            self.synchronize = cupy.cuda.runtime.deviceSynchronize
            self.library_matmul = lambda: self.arrays[0] @ self.arrays[1]
        else:
            raise ValueError(f"unknown source {source!r}; sources: {', '.join(SOURCES)}")

    def call(self):
        return matmul_opt.run(self.kernel, *self.arrays, out=self.out)


def call_seconds(operands: Operands, repetitions: int) -> float:
    """Median wall-clock time of one run(), the GPU work included (synchronised before and after)."""
    operands.call()
    times = []
    for _ in range(repetitions):
        operands.synchronize()
        start = time.perf_counter()
        operands.call()
        operands.synchronize()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def event_seconds(operands: Operands, calls: int = 1, repetitions: int = 15) -> float:
    """GPU arrays: median GPU seconds per call between two of the source library's CUDA events recorded on its
    current stream around `calls` run()s in a row. One call shows the time the GPU waits while run() prepares it;
    several back to back are timed as benchmark() times kernels (events around launches in a row)."""
    if operands.source == "torch":
        import torch

        make, elapsed = (lambda: torch.cuda.Event(enable_timing=True)), (lambda a, b: a.elapsed_time(b))
    else:
        import cupy

        make, elapsed = cupy.cuda.Event, cupy.cuda.get_elapsed_time
    start, stop = make(), make()
    operands.call()
    times = []
    for _ in range(repetitions):
        operands.synchronize()
        start.record()
        for _ in range(calls):
            operands.call()
        stop.record()
        stop.synchronize()
        times.append(elapsed(start, stop) / 1e3 / calls)
    return statistics.median(times)


def enqueue_seconds(call, synchronize, calls: int = 2000, rounds: int = 5) -> float:
    """Per-call cost of `calls` back-to-back calls on GPU arrays, synchronised once per round (median of rounds)."""
    call()
    synchronize()
    per_call = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        synchronize()
        per_call.append((time.perf_counter() - start) / calls)
    return statistics.median(per_call)
