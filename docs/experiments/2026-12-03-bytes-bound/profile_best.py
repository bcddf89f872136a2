"""Runs `best` (or another kernel) once on each shape given, from operands made on the host and copied to the GPU
(no kernels but the product's), so that Nsight Compute sees only the product's launches:

    ncu --section SpeedOfLight ... python3 docs/experiments/2026-12-03-bytes-bound/profile_best.py KERNEL MxNxK...
"""
import sys

import numpy as np
import torch

import matmul_opt


def main() -> int:
    kernel, shapes = sys.argv[1], sys.argv[2:]
    rng = np.random.default_rng(0)
    for shape in shapes:
        M, N, K = (int(x) for x in shape.split("x"))
        a = torch.from_numpy(rng.uniform(-1, 1, (M, K)).astype(np.float32)).cuda()
        b = torch.from_numpy(rng.uniform(-1, 1, (K, N)).astype(np.float32)).cuda()
        matmul_opt.run(kernel, a, b)
        torch.cuda.synchronize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
