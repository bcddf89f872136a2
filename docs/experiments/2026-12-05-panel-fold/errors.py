"""Each kernel's error over cuBLAS fp32's on the same inputs, per shape and input kind: best_fp32_accurate, pairwise
and best, the relative Frobenius error against a float64 product (on the GPU, in torch), fresh inputs per shape.

    python3 docs/experiments/2026-12-05-panel-fold/errors.py MxNxK...
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402
from matmul_opt.accuracy import FP32_ACCURATE_CONTRACT, INPUT_KINDS  # noqa: E402

KERNELS = ("best_fp32_accurate", "pairwise", "best")


def main() -> int:
    print(f"{'shape':<16} {'inputs':<26} {'cuBLAS':>9} " + " ".join(f"{k:>19}" for k in KERNELS) + "  contract")
    for shape in sys.argv[1:]:
        M, N, K = (int(x) for x in shape.split("x"))
        rng = np.random.default_rng(M + N + K)
        for kind, draw in INPUT_KINDS.items():
            a = torch.from_numpy(draw(rng, (M, K))).cuda()
            b = torch.from_numpy(draw(rng, (K, N))).cuda()
            reference = a.double() @ b.double()

            def error(kernel):
                return float(torch.linalg.norm(matmul_opt.run(kernel, a, b).double() - reference)
                             / torch.linalg.norm(reference))
            cublas = error("cublas")
            ratios = [error(k) / cublas for k in KERNELS]
            within = "yes" if ratios[0] <= FP32_ACCURATE_CONTRACT[kind] else "NO"
            print(f"{shape:<16} {kind:<26} {cublas:9.2e} " + " ".join(f"{r:19.2f}" for r in ratios) + f"  {within}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
