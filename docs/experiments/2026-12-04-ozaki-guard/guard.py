"""Which inputs does ozaki_int8's scaling fail to carry, and does an estimate from the passes' own statistics find
them? Emulated exactly on the CPU (the ozaki-emulation record's `ozaki`, norms scaling, as the rung runs it).

    python3 docs/experiments/2026-12-04-ozaki-guard/guard.py [--side 64] [--ks 16 256 4096 16384] [--seed 0]

The estimate: each value of a line is rounded to a multiple of 2^(e - bits) (e the line's exponent, bits alpha for A's
rows and beta for B's columns), an error of at most u = 2^(e - bits - 1); taken as independent and uniform, the
errors add up over C to ||E||_F^2 = (sum_i u_i^2 ||B||_F^2 + sum_j v_j^2 ||A||_F^2) / 3, while the contract's scale is
||S||_F^2 = sum over (i, j) of sum_k A(i,k)^2 B(k,j)^2 = sum_k ||A(:, k)||^2 ||B(k, :)||^2. Both need only sums the
passes can gather as they read the operands: per line its exponent, and per k the squares of A's column and B's row.
rho = ||E||_F / ||S||_F is then the scheme's own relative error before the rebuild's final rounding.

Baselines: numpy's float32 product (the CPU BLAS) and an order that reproduced cuBLAS fp32's errors on the H200 (the
summation-order record: K cut into slices of 64 k up to K = 1024 and of 256 beyond, each summed in order).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from matmul_opt.accuracy import error_scale, relative_error  # noqa: E402


def load(path, name):
    """A record's script as a module (both emulation scripts are named emulate.py)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ozaki_emulation = load("docs/experiments/2026-12-02-ozaki-emulation/emulate.py", "ozaki_emulation")
summation_order = load("docs/experiments/2026-12-03-summation-order/emulate.py", "summation_order")


def cublas_like(A, B):
    """K in slices of 64 (K <= 1024) or 256, each summed in order, the slices added in order."""
    K = A.shape[1]
    depth = 64 if K <= 1024 else 256
    return summation_order.slices(A, B, depth)


def estimate(A, B, moduli):
    """rho from the statistics the passes gather (see the docstring)."""
    _, _, shift_a, shift_b = ozaki_emulation.scaled(A, B, ozaki_emulation.MODULI[:moduli], "norms")
    A64, B64 = A.astype(np.float64), B.astype(np.float64)
    u2 = np.exp2(-2.0 * shift_a - 2).sum()  # sum_i u_i^2, u_i = 2^(e_i - alpha - 1) = 2^(-shift_i - 1)
    v2 = np.exp2(-2.0 * shift_b - 2).sum()
    error2 = (u2 * (B64 ** 2).sum() + v2 * (A64 ** 2).sum()) / 3
    scale2 = ((A64 ** 2).sum(axis=0) * (B64 ** 2).sum(axis=1)).sum()
    return float(np.sqrt(error2 / scale2)) if scale2 > 0 else 0.0


def inputs(kind, M, K, N, rng):
    """(A, B) of one kind. scale s: A = X D and B = D^-1 Y with D = diag(2^U(-s, s)), X and Y uniform (a scaling
    applied to one operand and undone in the other: every term of C is of size one, but each line's largest value
    sits far above most of its others). aligned: rows [1, 0.1, 0.1, ...] against columns of ones (every rounding
    of 0.1 in the same direction). toy: rows [1, 2^-40, 1, 2^-40, ...] against
    columns [2^-40, 1, 2^-40, 1, ...]."""
    uniform = lambda *shape: rng.uniform(-1, 1, shape)  # noqa: E731
    if kind == "uniform":
        A, B = uniform(M, K), uniform(K, N)
    elif kind.startswith("spread"):
        s = float(kind.split()[-1])
        draw = lambda *shape: rng.choice([-1, 1], shape) * np.exp2(rng.uniform(-s, s, shape))  # noqa: E731
        A, B = draw(M, K), draw(K, N)
    elif kind.startswith("scale"):
        s = float(kind.split()[-1])
        d = np.exp2(rng.uniform(-s, s, K))
        A, B = uniform(M, K) * d[None, :], uniform(K, N) / d[:, None]
    elif kind == "aligned":
        A = np.full((M, K), 0.1)
        A[:, 0] = 1.0
        B = np.ones((K, N))
    elif kind == "toy":
        A = np.tile([[1.0, 2.0**-40]], (M, (K + 1) // 2))[:, :K]
        B = np.tile([[2.0**-40], [1.0]], ((K + 1) // 2, N))[:K]
    else:
        raise ValueError(kind)
    return A.astype(np.float32), B.astype(np.float32)


KINDS = ["uniform", "spread 40", "spread 20", "scale 1", "scale 2", "scale 3", "scale 5", "scale 10",
         "scale 20", "aligned", "toy"]


def carried(rho, K):
    """The rule of core/layout/scaling_check.h: rho at most 2.3e-8 max(1, K / 16)^0.277."""
    return rho <= 2.3e-8 * max(1.0, K / 16) ** 0.277


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--side", type=int, default=64)
    parser.add_argument("--ks", type=int, nargs="+", default=[16, 256, 4096, 16384])
    parser.add_argument("--moduli", type=int, nargs="+", default=[8])
    parser.add_argument("--kinds", nargs="+", default=KINDS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print("relative errors (error_scale); ratio: to the cuBLAS-like order's; rho: the estimate; verdict: the rule's "
          "(carried, or computed another way); 'breach' where a carried product breaks the contract (1.0x for "
          "uniform, 2.0x for spread, 1.0x for the others)")
    for kind in args.kinds:
        allowed = 2.0 if kind.startswith("spread") else 1.0
        for K in args.ks:
            A, B = inputs(kind, args.side, K, args.side, rng)
            reference = A.astype(np.float64) @ B.astype(np.float64)
            scale = error_scale(A, B)
            base = relative_error(cublas_like(A, B), reference, scale)
            cells = []
            for n in args.moduli:
                C, wrapped, _ = ozaki_emulation.ozaki(A, B, n, "norms")
                error = relative_error(C, reference, scale)
                rho = estimate(A, B, n)
                verdict = "carried" if carried(rho, K) else "another way"
                breach = carried(rho, K) and (error > allowed * base or wrapped)
                ratio = f"{error / base:8.2f}x" if base > 0 else "  (exact)"
                cells.append(f"{n} moduli: {error:9.2e} ({ratio}{'*' if wrapped else ''}) rho {rho:9.2e} "
                             f"{verdict}{' BREACH' if breach else ''}")
            print(f"{kind:<10} K={K:<7} cublas-like {base:9.2e} | " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
