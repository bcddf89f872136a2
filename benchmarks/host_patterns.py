"""How scripts call run() on NumPy arrays, timed call by call: shared by the asv tracks (bench_host_patterns.py) and
the report tool (tools/host_patterns.py). GPU needed.

A pattern is a sequence of calls on pageable NumPy operands, random in [-1, 1]:
- "reassign": C = run(A, B) again and again (each result freed when the next replaces it);
- "keep": results.append(run(A, B)) (every result kept);
- "chain": X = run(X, B) (each product the next one's A; the values grow about sqrt(n)-fold per call, far from
  float32's range in the calls timed);
- "alternate": C = run(A, B) on three shapes in turn: n^3, (n/4)^3 and n x n/4 x n;
- "keep-pageable": results.append(run(A, B, out=np.empty(...))) (every result kept, in fresh pageable memory: a
  diagnostic of what fresh memory costs, for the report tool only).
The first call of a pattern starts CUDA and the library's pools; the figures are of the calls after it.
"""
from __future__ import annotations

import time

import numpy as np

import matmul_opt

PATTERNS = ["reassign", "keep", "chain", "alternate"]
DIAGNOSTICS = ["keep-pageable"]
KERNEL = "best"


def shapes(pattern: str, n: int) -> list[tuple[int, int, int]]:
    """The (M, N, K) of the pattern's calls, in turn."""
    return [(n, n, n), (n // 4, n // 4, n // 4), (n, n // 4, n)] if pattern == "alternate" else [(n, n, n)]


def call_ms(pattern: str, n: int, calls: int = 8) -> list[float]:
    """Wall-clock milliseconds of each of `calls` calls of the pattern at size n, in this process."""
    rng = np.random.default_rng(n)
    operands = {}
    for M, N, K in shapes(pattern, n):
        operands[(M, N, K)] = (rng.uniform(-1, 1, (M, K)).astype(np.float32),
                               rng.uniform(-1, 1, (K, N)).astype(np.float32))
    turn = shapes(pattern, n)
    kept, X, times = [], operands[turn[0]][0], []
    for i in range(calls):
        A, B = operands[turn[i % len(turn)]]
        start = time.perf_counter()
        if pattern == "chain":
            X = matmul_opt.run(KERNEL, X, B)
        elif pattern == "keep":
            kept.append(matmul_opt.run(KERNEL, A, B))
        elif pattern == "keep-pageable":
            kept.append(matmul_opt.run(KERNEL, A, B, out=np.empty((A.shape[0], B.shape[1]), np.float32)))
        else:
            C = matmul_opt.run(KERNEL, A, B)  # noqa: F841  (the previous result is freed here)
        times.append((time.perf_counter() - start) * 1e3)
    return times


def worst_after_first(times: list[float]) -> float:
    """The slowest call after the first (which starts CUDA and the pools)."""
    return max(times[1:])
