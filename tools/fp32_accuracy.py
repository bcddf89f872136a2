"""For accuracy experiments on the fp32-accurate kernels: the inputs of issue 18's bounds (matmul_opt.accuracy's
uniform and log_uniform) and one row of a kernel's error against float64 beside a baseline's (cuBLAS fp32, pedantic)
over K. GPU needed for sweep_row.

    from tools.fp32_accuracy import log_uniform, sweep_row, uniform   # with the repository root on sys.path
"""
from __future__ import annotations

import numpy as np

import matmul_opt
from matmul_opt.accuracy import error_scale, log_uniform, relative_error, uniform  # noqa: F401 (uniform: re-exported)


def sweep_row(kernel: str, draw, mn: int, seed: int, ks, baseline: str = "cublas") -> str:
    """`kernel`'s and `baseline`'s errors on mn x K x mn products of fresh inputs from `draw` (seeded), at each K."""
    rng = np.random.default_rng(seed)
    cells = []
    for K in ks:
        A, B = draw(rng, (mn, K)), draw(rng, (K, mn))
        reference, scale = A.astype(np.float64) @ B.astype(np.float64), error_scale(A, B)
        ours = relative_error(matmul_opt.run(kernel, A, B), reference, scale)
        theirs = relative_error(matmul_opt.run(baseline, A, B), reference, scale)
        cells.append(f"K={K} {ours:.2e}/{theirs:.2e} ({ours / theirs:.2f}x)")
    return f"{draw.__name__:<11} {mn} seed {seed}: " + "  ".join(cells)
