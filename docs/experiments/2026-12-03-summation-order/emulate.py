"""The error of an fp32 product under different orders of summation, emulated exactly on the CPU, at the report's
accuracy shape (256 x K x 256) and input kinds, beside the errors the H200 measured for cuBLAS fp32 and best.

    python3 docs/experiments/2026-12-03-summation-order/emulate.py [--ks 16 64 256 1024 4096] [--seed 0]

Every order works on fp32 values with fused multiply-adds: fma(a, b, c) is float32(float64(a) * float64(b) + c),
the product being exact in float64 and the sum rounded twice (to float64, then to float32), which differs from one
rounding only where the float64 sum lies within 2^-29 of a float32 midpoint (rare, and the same in every order).
A plain addition is float32(float64(x) + float64(y)), exact. The orders:
  sequential       one accumulator over k = 0 .. K-1 (an FFMA tile kernel's thread, one K slice)
  slices D         K cut into slices of D k, each sequential, the slices' sums added in slice order (split-K with
                   the library's reduction)
  slices D tree    the same, the slices' sums added pairwise (a tree over the slice index)
  interleave P     P accumulators, k mod P, each sequential, then added pairwise
  blocked B        chunks of B k, each summed from zero, each chunk's sum added to a running total
  chunk B, slices D tree   slices of D k added pairwise, each slice blocked B (two accumulators a thread)
The error is matmul_opt.accuracy.relative_error against float64 with the error scale, as the report computes it.
"""
import argparse
import functools
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from matmul_opt.accuracy import INPUT_KINDS, error_scale, relative_error  # noqa: E402

SIDE = 256


def fma(a, b, c):
    return (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(np.float32)


def add(x, y):
    return (x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)


def sequential(A, B, k0=0, k1=None):
    k1 = A.shape[1] if k1 is None else k1
    c = np.zeros((A.shape[0], B.shape[1]), np.float32)
    for k in range(k0, k1):
        c = fma(A[:, k:k + 1], B[k:k + 1, :], c)
    return c


def in_order(parts):
    total = parts[0]
    for p in parts[1:]:
        total = add(total, p)
    return total


def pairwise(parts):
    while len(parts) > 1:
        parts = [add(parts[i], parts[i + 1]) if i + 1 < len(parts) else parts[i] for i in range(0, len(parts), 2)]
    return parts[0]


def slices(A, B, depth, tree=False):
    K = A.shape[1]
    parts = [sequential(A, B, k, min(K, k + depth)) for k in range(0, K, depth)]
    return pairwise(parts) if tree else in_order(parts)


def chunked_slices(A, B, chunk, depth):
    """Slices of `depth` k summed pairwise; within a slice, chunks of `chunk` k each summed from zero and added to
    the slice's running total (two accumulators per output in a thread)."""
    K = A.shape[1]
    return pairwise([blocked(A[:, k:k + depth], B[k:k + depth, :], chunk) for k in range(0, K, depth)])


def interleave(A, B, p):
    parts = [sequential(A[:, j::p], B[j::p, :]) for j in range(min(p, A.shape[1]))]
    return pairwise(parts)


def blocked(A, B, b):
    K = A.shape[1]
    total = np.zeros((A.shape[0], B.shape[1]), np.float32)
    for k in range(0, K, b):
        total = add(total, sequential(A, B, k, min(K, k + b)))
    return total


ORDERS = {
    "sequential": sequential,
    **{f"slices {d}": functools.partial(slices, depth=d) for d in (64, 32, 16, 8, 4, 128, 256)},
    **{f"slices {d} tree": functools.partial(slices, depth=d, tree=True) for d in (64, 16, 4, 1)},
    **{f"chunk {c}, slices {d} tree": functools.partial(chunked_slices, chunk=c, depth=d) for c, d in ((16, 1024),
                                                                                                       (8, 512))},
    **{f"interleave {p}": functools.partial(interleave, p=p) for p in (2, 4, 8)},
    **{f"blocked {b}": functools.partial(blocked, b=b) for b in (8, 16, 32)},
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ks", nargs="+", type=int, default=[4, 16, 64, 256, 1024, 4096])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--orders", nargs="+", default=list(ORDERS))
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    for kind, make in INPUT_KINDS.items():
        print(f"{kind}: relative error at {SIDE} x K x {SIDE}")
        print(f"{'order':<28}" + "".join(f"{'K=' + str(K):>11}" for K in args.ks))
        inputs = {K: (make(rng, (SIDE, K)), make(rng, (K, SIDE))) for K in args.ks}
        refs = {K: (A.astype(np.float64) @ B.astype(np.float64), error_scale(A, B)) for K, (A, B) in inputs.items()}
        for name in args.orders:
            row = []
            for K in args.ks:
                A, B = inputs[K]
                ref, scale = refs[K]
                row.append(relative_error(ORDERS[name](A, B), ref, scale))
            print(f"{name:<28}" + "".join(f"{e:11.3e}" for e in row), flush=True)
        print()


if __name__ == "__main__":
    main()
