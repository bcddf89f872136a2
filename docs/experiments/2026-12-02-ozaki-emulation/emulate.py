"""Ozaki scheme II emulated exactly on the CPU: how many INT8 moduli an fp32-accurate product needs, by K, by the
inputs' exponent spread and by how the scaling bounds the integer product.

    PYTHONPATH=. python3 docs/experiments/2026-12-02-ozaki-emulation/emulate.py [--side 64] [--ks 16 256] [--seed 0]

The scheme (Ozaki, Uchino, Imamura 2025): each row i of A is scaled by a power of two and rounded to integers of at
most alpha bits (A_int), each column j of B likewise (beta bits); C_int = A_int B_int is computed exactly as its
residues modulo N pairwise coprime moduli of at most 256 (each residue matrix fits int8 as a symmetric residue, and
each residue product is what one INT8 tensor-core GEMM with int32 sums gives, exact for K up to 2^17); the Chinese
remainder theorem rebuilds C_int, exact while |C_int| < M / 2 (M the moduli's product), and C is C_int scaled back.
Here float64 products of the residues (exact at these sizes) stand in for the INT8 GEMMs and Python integers for the
rebuild, so the only errors are the scheme's own: the rounding of A and B to alpha and beta bits and the final
rounding to fp32.

Three scalings choose alpha and beta:
- worst case: alpha + beta = floor(log2 M) - 1 - ceil(log2 K), from |C_int| <= K 2^(alpha + beta);
- norms: the largest alpha + beta for which the Cauchy-Schwarz bound max_i ||A_int(i, :)|| max_j ||B_int(:, j)||
  stays under M / 2 (a pass over each operand, which its quantisation makes anyway);
- bound: the largest alpha + beta for which the bound sum_k |A_int(i, k)| |B_int(k, j)|, computed from the inputs
  (on the GPU, one more product of the operands' leading bits), stays under M / 2 for every element.

The error is matmul_opt.accuracy.relative_error against float64 with error_scale, the measure of the library's
tolerance; the fp32 baseline is numpy's float32 product (the CPU BLAS), a stand-in for cuBLAS SGEMM, whose ratio the
issue's contract names. Inputs: uniform in [-1, 1], and sign x U(1, 2) x 2^U(-s, s) for spreads s = 20 and 40.
"""
from __future__ import annotations

import argparse
import math

import numpy as np

from matmul_opt.accuracy import error_scale, relative_error

# Pairwise coprime, at most 256: 256 and 255 = 3 * 5 * 17, 253 = 11 * 23, 247 = 13 * 19, then primes.
MODES = ("worst", "norms", "bound")
MODULI = [256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 211]
assert all(math.gcd(a, b) == 1 for i, a in enumerate(MODULI) for b in MODULI[i + 1:])


def inputs(kind: str, rows: int, cols: int, rng) -> np.ndarray:
    if kind == "uniform":
        return rng.uniform(-1, 1, (rows, cols)).astype(np.float32)
    spread = float(kind.split("2^")[1])
    magnitude = rng.uniform(1, 2, (rows, cols)) * np.exp2(rng.uniform(-spread, spread, (rows, cols)))
    return (np.where(rng.random((rows, cols)) < 0.5, -1, 1) * magnitude).astype(np.float32)


def exponents(x: np.ndarray, axis: int) -> np.ndarray:
    """Per row (axis 1) or column (axis 0): e with max |x| < 2^e (0 for an all-zero line)."""
    top = np.abs(x.astype(np.float64)).max(axis=axis)
    return np.where(top > 0, np.floor(np.log2(np.where(top > 0, top, 1))) + 1, 0).astype(np.int64)


def to_integers(x: np.ndarray, shift: np.ndarray, axis: int) -> np.ndarray:
    """round(x * 2^shift) per row (axis 1) or column (axis 0), exactly (float64 holds every fp32 times a power of
    two, and rounding to an integer of at most 53 bits is exact)."""
    s = shift[:, None] if axis == 1 else shift[None, :]
    return np.rint(np.ldexp(x.astype(np.float64), s)).astype(np.int64)


def scaled(A, B, moduli, mode):
    """(A_int, B_int, shift_a, shift_b) with alpha + beta bits chosen by `mode` for the moduli's product."""
    M = math.prod(moduli)
    K = A.shape[1]
    ea, eb = exponents(A, 1), exponents(B, 0)
    budget = M.bit_length() - 2 - math.ceil(math.log2(max(K, 1)))  # worst case: K 2^(alpha + beta) < M / 2
    if mode == "norms":
        # Cauchy-Schwarz: sum_k |A_int(i, k)| |B_int(k, j)| <= ||A_int(i, :)|| ||B_int(:, j)||, and with
        # |A_int| <= |A| 2^(alpha - ea) + 1/2, ||A_int(i, :)|| <= 2^alpha ||A(i, :) 2^-ea|| + sqrt(K) / 2: one pass
        # over each operand, no product.
        na = np.sqrt((np.exp2(-2.0 * ea)[:, None] * A.astype(np.float64) ** 2).sum(axis=1)).max()
        nb = np.sqrt((np.exp2(-2.0 * eb)[None, :] * B.astype(np.float64) ** 2).sum(axis=0)).max()
        while True:
            alpha = (budget + 1) // 2 + 1
            beta = budget + 1 - alpha + 1
            bound = (2.0 ** alpha * na + math.sqrt(K) / 2) * (2.0 ** beta * nb + math.sqrt(K) / 2)
            if bound >= M / 2 * (1 - 2 ** -40):
                break
            budget += 1
    if mode == "bound":
        # |A_int| <= |A| 2^(alpha - ea) + 1/2 per element: the bound of every C_int element from the inputs.
        absA = np.abs(A.astype(np.float64)) * np.exp2(-ea)[:, None]
        absB = np.abs(B.astype(np.float64)) * np.exp2(-eb)[None, :]
        while True:
            alpha = (budget + 1) // 2 + 1
            beta = budget + 1 - alpha + 1
            bound = ((absA * 2.0 ** alpha + 0.5) @ (absB * 2.0 ** beta + 0.5)).max()
            if bound >= M / 2 * (1 - 2 ** -40):
                break
            budget += 1
    alpha = (budget + 1) // 2
    beta = budget - alpha
    shift_a, shift_b = alpha - ea, beta - eb
    return to_integers(A, shift_a, 1), to_integers(B, shift_b, 0), shift_a, shift_b


def symmetric(x: np.ndarray, m: int) -> np.ndarray:
    """x mod m in [-m/2, m/2): what an int8 holds for m <= 256."""
    r = np.mod(x, m)
    return np.where(r >= (m + 1) // 2, r - m, r)


def rebuilt_in_float64(residues, moduli) -> np.ndarray:
    """C_int from its residues as an epilogue would rebuild it in float64: t = sum_l u_l / m_l with
    u_l = r_l ((M/m_l)^-1 mod m_l) mod m_l (small integers, exact), and C_int = M (t - round(t))."""
    M = math.prod(moduli)
    t = np.zeros(residues[0].shape)
    for m, r in zip(moduli, residues):
        y = pow(M // m, -1, m)
        t += np.mod(r * y, m) / m
    return float(M) * (t - np.rint(t))


def ozaki(A, B, n_moduli, mode, rebuild="exact"):
    moduli = MODULI[:n_moduli]
    M = math.prod(moduli)
    A_int, B_int, shift_a, shift_b = scaled(A, B, moduli, mode)
    residues = []
    for m in moduli:
        a, b = symmetric(A_int, m), symmetric(B_int, m)
        assert a.min() >= -128 and a.max() <= 127 and b.min() >= -128 and b.max() <= 127
        # The INT8 product with its int32 sum, reduced. float64 sums it exactly (every term is at most 2^14, every
        # partial sum under 2^53 for K < 2^39), so the CPU's float BLAS computes it.
        residues.append(np.mod(np.rint(a.astype(np.float64) @ b.astype(np.float64)).astype(np.int64), m))
    # The rebuild: C_int = sum_l r_l (M/m_l) ((M/m_l)^-1 mod m_l) mod M, centred.
    C_int = np.zeros(residues[0].shape, dtype=object)
    for m, r in zip(moduli, residues):
        Ml = M // m
        C_int = C_int + r.astype(object) * (Ml * pow(Ml, -1, m))
    C_int = np.mod(C_int, M)
    C_int = np.where(C_int > M // 2, C_int - M, C_int)
    # A wrapped element is off by a multiple of M; float64 holds the true product to far better than M / 4.
    estimate = A_int.astype(np.float64) @ B_int.astype(np.float64)
    wrapped = bool(np.any(np.abs(C_int.astype(np.float64) - estimate) > M / 4))
    values = C_int.astype(np.float64) if rebuild == "exact" else rebuilt_in_float64(residues, moduli)
    C = np.ldexp(values, -(shift_a[:, None] + shift_b[None, :]))
    return C.astype(np.float32), wrapped, int(shift_a.max() + exponents(A, 1).max())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--side", type=int, default=64)
    parser.add_argument("--ks", type=int, nargs="+", default=[16, 256, 4096, 65536])
    parser.add_argument("--moduli", type=int, nargs="+", default=[5, 6, 7, 8, 9, 10])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rebuild", choices=("exact", "fp64"), default="exact",
                        help="the Chinese remainder rebuild in Python integers, or in float64 as an epilogue would")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print("relative error against float64 (error_scale), and its ratio to numpy's float32 product; * = rebuilt C_int "
          "wrapped (|C_int| >= M/2)")
    for kind in ("uniform", "spread 2^20", "spread 2^40"):
        for K in args.ks:
            A, B = inputs(kind, args.side, K, rng), inputs(kind, K, args.side, rng)
            reference = A.astype(np.float64) @ B.astype(np.float64)
            scale = error_scale(A, B)
            fp32 = relative_error(A @ B, reference, scale)
            cells, least = [], {}
            allowed = 1.0 if kind == "uniform" else 2.0  # the contract against cuBLAS fp32
            for mode in MODES:
                for n in args.moduli:
                    C, wrapped, _ = ozaki(A, B, n, mode, args.rebuild)
                    ratio = relative_error(C, reference, scale) / fp32
                    if ratio <= allowed and not wrapped and mode not in least:
                        least[mode] = n
                    cells.append(f"{mode[0]}{n}: {ratio:6.2f}{'*' if wrapped else ' '}")
            fewest = " / ".join(str(least.get(mode, "-")) for mode in MODES)
            head = f"{kind:<12} K={K:<7} fp32 {fp32:.2e} | least moduli ({' / '.join(MODES)}): {fewest:<9} | "
            print(head + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
