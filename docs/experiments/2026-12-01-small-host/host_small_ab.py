"""Small products from NumPy arrays with several builds of the library, in alternating processes: the per-call cost
of run('best', A, B) at n^3 (median over rounds of back-to-back calls; each call synchronises) and the product's
error against float64. GPU needed.

    python3 host_small_ab.py ROUNDS LIB [LIB ...]      (prints one line per library, size and round)
    python3 host_small_ab.py --child LIB               (one process's measurements, as JSON)
"""
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SIZES = (32, 64, 128, 160)
CALLS, ROUNDS_PER_PROCESS = 1000, 5


def child():
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    import numpy as np

    import matmul_opt

    rng = np.random.default_rng(7)
    out = {}
    for n in SIZES:
        A, B = (rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(2))
        reference = A.astype(np.float64) @ B.astype(np.float64)
        C = matmul_opt.run("best", A, B)
        error = float(np.linalg.norm(C - reference) / np.linalg.norm(reference))
        per_call = []
        for _ in range(ROUNDS_PER_PROCESS):
            start = time.perf_counter()
            for _ in range(CALLS):
                matmul_opt.run("best", A, B)
            per_call.append((time.perf_counter() - start) / CALLS)
        out[n] = {"us": statistics.median(per_call) * 1e6, "error": error}
    print(json.dumps(out))


def main():
    rounds, libs = int(sys.argv[1]), sys.argv[2:]
    for r in range(rounds):
        for lib in libs:
            env = dict(os.environ, MATMUL_OPT_LIBRARY=str(Path(lib).resolve()))
            result = json.loads(subprocess.run([sys.executable, __file__, "--child", lib], env=env, check=True,
                                               capture_output=True, text=True).stdout)
            for n, row in result.items():
                print(f"round {r} {Path(lib).name:<24} {n:>4}^3  {row['us']:7.2f} us/call  error {row['error']:.2e}",
                      flush=True)


if __name__ == "__main__":
    child() if sys.argv[1] == "--child" else main()
