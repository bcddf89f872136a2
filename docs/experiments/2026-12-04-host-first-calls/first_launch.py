"""What the first product of a shape costs against the second, on operands already on the GPU (GPU needed), so that
no host memory is involved: the first launch of each kernel (CUDA's lazy loading, CUDA_MODULE_LOADING) and any
per-shape setup of the library.

    python3 first_launch.py [--kernel best]

Prints, per shape, the wall-clock ms of the first and second call (each synchronised), and one JSON line.
"""
import argparse
import json
import os
import time

import numpy as np
import torch

import matmul_opt

SHAPES = [(4096, 4096, 4096), (1024, 1024, 1024), (256, 256, 256), (4096, 1024, 4096), (1000, 1000, 1000),
          (8, 4096, 4096), (3000, 7000, 64), (64, 64, 100000), (2048, 11008, 4096), (385, 769, 1537)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernel", default="best")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    warm_a = torch.ones(8, 8, device="cuda")
    matmul_opt.run("naive", warm_a, warm_a)  # CUDA and the library started
    torch.cuda.synchronize()
    rows = []
    for M, N, K in SHAPES:
        a = torch.from_numpy(rng.uniform(-1, 1, (M, K)).astype(np.float32)).cuda()
        b = torch.from_numpy(rng.uniform(-1, 1, (K, N)).astype(np.float32)).cuda()
        torch.cuda.synchronize()
        ms = []
        for _ in range(3):
            t = time.perf_counter()
            matmul_opt.run(args.kernel, a, b)
            torch.cuda.synchronize()
            ms.append((time.perf_counter() - t) * 1e3)
        rows.append({"shape": [M, N, K], "ms": ms})
        print(f"{M}x{N}x{K}: first {ms[0]:8.2f} ms  second {ms[1]:8.2f}  third {ms[2]:8.2f}", flush=True)
    print(json.dumps({"module_loading": os.environ.get("CUDA_MODULE_LOADING", "(default)"), "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
