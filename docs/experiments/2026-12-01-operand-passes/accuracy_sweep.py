"""wgmma_3xtf32's error against cuBLAS fp32's (pedantic) over K, on fresh inputs of two seeds: uniform [-1, 1] at
256 x K x 256 (the report's table, with its error scale) and 512 x K x 512, and log-uniform magnitudes over
[2^-40, 2^40] with random signs at 512 x K x 512 (issue 18's bounds: 1x and 2x cuBLAS fp32).

    MATMUL_OPT_LIBRARY=path/to/libmatmul.so python3 accuracy_sweep.py LABEL
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402
from matmul_opt.accuracy import error_scale, relative_error  # noqa: E402

label = sys.argv[1]


def uniform(rng, shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def log_uniform(rng, shape):
    return (np.exp2(rng.uniform(-40, 40, shape)) * rng.choice([-1.0, 1.0], shape)).astype(np.float32)


for draw, mn in ((uniform, 256), (uniform, 512), (log_uniform, 512)):
    for seed in (1, 2):
        rng = np.random.default_rng(seed)
        cells = []
        for K in (256, 1024, 4096, 16384, 65536):
            A, B = draw(rng, (mn, K)), draw(rng, (K, mn))
            ref, scale = A.astype(np.float64) @ B.astype(np.float64), error_scale(A, B)
            ours = relative_error(matmul_opt.run("wgmma_3xtf32", A, B), ref, scale)
            theirs = relative_error(matmul_opt.run("cublas", A, B), ref, scale)
            cells.append(f"K={K} {ours:.2e}/{theirs:.2e} ({ours / theirs:.2f}x)")
        print(f"{label:<10} {draw.__name__:<11} {mn} seed {seed}: " + "  ".join(cells), flush=True)
