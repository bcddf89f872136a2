"""The fp32-accurate class's panels on the CPU: the error of best's order (one FMA chain per K slice, the slices added
in order) against pairwise's panel order (one accumulator folded into a running total every 64 k, slices of at most
4096 added pairwise), on the panels where the H200 measured best_fp32_accurate past the contract, with the slice
counts each kernel's rules give there (best: its panel tile and split-K rule; pairwise: its panel tile, the split-K
rule and the 4096 bound). Each fp32 FMA is emulated as the float64 sum of the float32 accumulator and the exact
float64 product, rounded to float32 (a double rounding, which moves a result's last bit rarely and the error's size
not at all). A sample of outputs per shape (the error's scale does not depend on C's size); relative Frobenius
error against float64. Prints each order's error and their ratio, and the ratio measured against cuBLAS fp32 times
it: the error pairwise's order would have against cuBLAS's, if cuBLAS's is as measured.

    python3 docs/experiments/2026-12-05-panel-fold/emulate.py [--outputs 4096] [--seed 0]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from matmul_opt.accuracy import INPUT_KINDS  # noqa: E402

# Shape, best's K slices there (read from its rules: the panel tile and the split-K rule), pairwise's, and
# best_fp32_accurate's error over cuBLAS fp32's, measured on the H200 on uniform inputs (ozaki-rung record).
PANELS = [((100, 11008, 4096), 3, 1, 1.70), ((4000, 33, 1000), 3, 3, 1.39), ((129, 4097, 2000), 4, 3, 1.12)]
FOLD_K = 64
TILE_K = 16


def fma_chain(a, b, start=None):
    """In-order fp32 FMAs over the columns of a and b (outputs by k), from `start` or zero."""
    acc = np.zeros(a.shape[0], np.float32) if start is None else start
    for k in range(a.shape[1]):
        acc = (acc.astype(np.float64) + a[:, k].astype(np.float64) * b[:, k].astype(np.float64)).astype(np.float32)
    return acc


def even_slices(K, splits):
    """[begin, end) of at most `splits` even slices of whole 16-k tiles, none empty (run_split_k's)."""
    tiles = -(-K // TILE_K)
    per = -(-tiles // splits)
    return [(z * per * TILE_K, min(K, (z + 1) * per * TILE_K)) for z in range(-(-tiles // per))]


def best_order(a, b, splits):
    parts = [fma_chain(a[:, lo:hi], b[:, lo:hi]) for lo, hi in even_slices(a.shape[1], splits)]
    total = parts[0]
    for p in parts[1:]:
        total = (total + p).astype(np.float32)
    return total


def pairwise_sum(parts):
    """The pairwise reduction's tree: levels of 1, 2, 4, ... slices combined as the slices come, then the levels."""
    levels = []
    for p in parts:
        carry, level = p, 0
        while level < len(levels) and levels[level] is not None:
            carry = (carry + levels[level]).astype(np.float32)
            levels[level] = None
            level += 1
        if level == len(levels):
            levels.append(None)
        levels[level] = carry
    full = [x for x in levels if x is not None]
    total = full[0]
    for x in full[1:]:
        total = (total + x).astype(np.float32)
    return total


def panel_fold_order(a, b, splits):
    parts = []
    for lo, hi in even_slices(a.shape[1], splits):
        total = np.zeros(a.shape[0], np.float32)
        for f in range(lo, hi, FOLD_K):
            total = (total + fma_chain(a[:, f:min(hi, f + FOLD_K)], b[:, f:min(hi, f + FOLD_K)])).astype(np.float32)
        parts.append(total)
    return pairwise_sum(parts)


def error(result, exact):
    return float(np.linalg.norm(result - exact) / np.linalg.norm(exact))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outputs", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"{'shape':<16} {'inputs':<26} {'best':>9} {'pairwise':>9} {'ratio':>6} {'measured vs cuBLAS':>19} "
          f"{'pairwise vs cuBLAS':>19}")
    for (M, N, K), best_splits, pairwise_splits, measured in PANELS:
        for kind, draw in INPUT_KINDS.items():
            a, b = draw(rng, (args.outputs, K)), draw(rng, (args.outputs, K))
            exact = (a.astype(np.float64) * b.astype(np.float64)).sum(axis=1)
            old = error(best_order(a, b, best_splits), exact)
            new = error(panel_fold_order(a, b, pairwise_splits), exact)
            shown = f"{measured:.2f}" if kind.startswith("uniform") else "-"
            predicted = f"{measured * new / old:.2f}" if kind.startswith("uniform") else "-"
            print(f"{M}x{N}x{K:<7} {kind:<26} {old:9.2e} {new:9.2e} {new / old:6.2f} {shown:>19} {predicted:>19}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
