"""wgmma_tf32 on row-major A and B whose rows the copy engine takes (the transposed product, no pass), at ragged
and split-K shapes, against float64 at the tf32 tolerance: a quick check to run under compute-sanitizer.

    MATMUL_OPT_LIBRARY=path/to/libmatmul.so compute-sanitizer --tool memcheck python3 nn_check.py
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402
from matmul_opt.accuracy import error_scale, relative_error, tolerance  # noqa: E402

rng = np.random.default_rng(5)
for M, N, K in [(128, 256, 32), (300, 260, 132), (1000, 1004, 1000), (64, 64, 8), (8, 4, 4), (256, 256, 65536)]:
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    ref = A.astype(np.float64) @ B.astype(np.float64)
    err = relative_error(matmul_opt.run("wgmma_tf32", A, B), ref, error_scale(A, B))
    bound = tolerance("tf32", K)
    print(f"{M}x{N}x{K}: error {err:.2e} (tolerance {bound:.2e}) {'ok' if err <= bound else 'FAILED'}", flush=True)
