"""Seven moduli or eight, against the fp32 orders cuBLAS uses: K in shallow slices (a small C) and one chain over
K (a C that fills the GPU). Emulated exactly on the CPU with the ozaki-emulation record's `ozaki` (norms scaling)
and the guard record's estimate rho.

    python3 docs/experiments/2026-12-05-ozaki-seven-moduli/seven_moduli.py [--side 32] [--seed 0] [--ks ...]

For each input kind and K: the relative error (matmul_opt.accuracy.relative_error) of one in-order chain of fp32
FMAs over K (the summation-order record's `sequential`), of the guard record's cuBLAS-like slices, and of the scheme
with 7 and 8 moduli, each with rho and rho / sqrt(K).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs/experiments/2026-12-04-ozaki-guard"))
import guard  # noqa: E402
from matmul_opt.accuracy import error_scale, relative_error  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--side", type=int, default=32)
    parser.add_argument("--ks", type=int, nargs="+", default=[1024, 4096, 8192, 16384, 65536])
    parser.add_argument("--kinds", nargs="+", default=["uniform", "spread 40", "scale 1", "scale 2", "scale 3"])
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"{args.side} x K x {args.side}, seed {args.seed}; errors relative to the error scale; 'x chain': over the "
          "chain's error")
    for kind in args.kinds:
        for K in args.ks:
            A, B = guard.inputs(kind, args.side, K, args.side, rng)
            reference = A.astype(np.float64) @ B.astype(np.float64)
            scale = error_scale(A, B)
            chain = relative_error(guard.summation_order.sequential(A, B), reference, scale)
            sliced = relative_error(guard.cublas_like(A, B), reference, scale)
            cells = [f"{kind:<9} K={K:<6} chain {chain:8.2e} ({chain / np.sqrt(K):8.2e} sqrt K) sliced {sliced:8.2e}"]
            for n in (7, 8):
                C, wrapped, _ = guard.ozaki_emulation.ozaki(A, B, n, "norms")
                error = relative_error(C, reference, scale)
                rho = guard.estimate(A, B, n)
                ratio = f"{error / chain:5.2f}x chain" if chain > 0 else "(chain exact)"
                cells.append(f"{n} moduli {error:8.2e} = {ratio}{'*' if wrapped else ''}, rho {rho:8.2e} "
                             f"= {rho / np.sqrt(K):8.2e} sqrt K")
            print(" | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
