"""The order of the pairwise rung (cuda/kernels/pairwise.cu) and variants of it, emulated exactly as emulate.py does,
as a ratio to the errors cuBLAS fp32 measured on the H200 at 256 x K x 256 (precision-dispatch record, call 1).

    python3 docs/experiments/2026-12-03-summation-order/kernel_order.py 1 4 16 64 256 1024 4096

An order: K tiles of `tile` k; within a tile the k go in runs of `run` consecutive k, run r to part r mod `ways`;
every `chunk_tiles` tiles the parts are added pairwise into a running total; slices of `slice_k` k are added
pairwise. The pairwise rung is "runs4 x4 chunk32" (tiles of 16, 4 parts, 2 tiles per chunk, slices of 512).
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import emulate as E  # noqa: E402
from matmul_opt.accuracy import INPUT_KINDS, error_scale, relative_error  # noqa: E402

def order(A, B, tile, run, ways, chunk_tiles, slice_k):
    """C in the order the module docstring describes."""
    K = A.shape[1]
    slices = []
    for s0 in range(0, K, slice_k):
        s1 = min(K, s0 + slice_k)
        total = None
        for c0 in range(s0, s1, tile * chunk_tiles):
            c1 = min(s1, c0 + tile * chunk_tiles)
            ks = np.arange(c0, c1)
            part_of = ((ks - s0) % tile) // run % ways
            parts = []
            for j in range(ways):
                sel = ks[part_of == j]
                empty = np.zeros((A.shape[0], B.shape[1]), np.float32)
                parts.append(E.sequential(A[:, sel], B[sel, :]) if len(sel) else empty)
            c = E.pairwise(parts)
            total = c if total is None else E.add(total, c)
        slices.append(total)
    return E.pairwise(slices)

cublas_u = {1: 2.47e-8, 4: 4.06e-8, 16: 5.74e-8, 64: 1.44e-7, 256: 1.51e-7, 1024: 1.63e-7, 4096: 2.97e-7}
cublas_s = {1: 2.39e-8, 4: 2.55e-8, 16: 3.36e-8, 64: 4.40e-8, 256: 5.85e-8, 1024: 8.63e-8, 4096: 1.06e-7}
designs = {"interleave x4 chunk32": (16, 1, 4, 2, 512), "runs4 x4 chunk32": (16, 4, 4, 2, 512),
           "runs4 x4 chunk16": (16, 4, 4, 1, 512), "runs8 x2 chunk32": (16, 8, 2, 2, 512)}
rng = np.random.default_rng(7)
ks = [int(k) for k in sys.argv[1:]]
for kind, make in INPUT_KINDS.items():
    base = cublas_u if kind.startswith("uniform") else cublas_s
    print(kind, "ratio to cuBLAS (H200) at K =", ks)
    data = {K: (make(rng, (256, K)), make(rng, (K, 256))) for K in ks}
    seq = []
    for K in ks:
        A, B = data[K]; ref = A.astype(np.float64) @ B.astype(np.float64)
        seq.append(f"{relative_error(E.sequential(A, B), ref, error_scale(A, B)) / base[K]:.2f}")
    print(f"  {'sequential':<24}", " ".join(seq))
    for name, p in designs.items():
        row = []
        for K in ks:
            A, B = data[K]
            ref = A.astype(np.float64) @ B.astype(np.float64)
            e = relative_error(order(A, B, *p), ref, error_scale(A, B))
            row.append(f"{e / base[K]:.2f}")
        print(f"  {name:<24}", " ".join(row), flush=True)
