"""ozaki_int8 on a C past the size from which its scaling check allows seven moduli, on GPU arrays (one call, one
launch sequence, as the host path's panels would not be), every variant the sanitizer driver runs: the plain
product, op T operands with alpha and beta, B alone transposed; each checked against float64. Meant to run under
compute-sanitizer (memcheck, initcheck): CuPy only copies the arrays, so every kernel it sees is the library's.

    compute-sanitizer --tool memcheck python3 docs/experiments/2026-12-05-ozaki-seven-moduli/seven_products.py
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import cupy
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402
from matmul_opt.accuracy import error_scale, relative_error  # noqa: E402


def main() -> int:
    side = int(math.sqrt(4096 * 4096 / 132 * matmul_opt.device_info().sm_count)) + 517
    M, N, K = side, side - 3, 1001
    rng = np.random.default_rng()
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    C0 = rng.uniform(-1, 1, (M, N)).astype(np.float32)
    product = A.astype(np.float64) @ B.astype(np.float64)
    scale = error_scale(A, B)
    failures = 0
    variants = (("plain", A, B, 1.0, 0.0),
                ("op T, alpha, beta", np.asfortranarray(A), np.ascontiguousarray(B.T).T, -1.5, 0.5),
                ("op N, T", A, np.ascontiguousarray(B.T).T, 1.0, 0.0))
    for label, a, b, alpha, beta in variants:
        out = cupy.asarray(C0)
        C = matmul_opt.run("ozaki_int8", cupy.asarray(a, order="K"), cupy.asarray(b, order="K"), out=out,
                           alpha=alpha, beta=beta)
        expected = alpha * product + beta * C0
        error = relative_error(cupy.asnumpy(C), expected, abs(alpha) * scale + np.abs(beta * C0))
        ok = error <= matmul_opt.tolerance("fp32_tensor", K)
        failures += not ok
        print(f"ozaki_int8 {M}x{N}x{K} {label}: relative error {error:.2e} {'ok' if ok else 'WRONG'}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
