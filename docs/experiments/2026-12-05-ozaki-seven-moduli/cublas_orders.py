"""From which size of C does cuBLAS fp32 stop splitting K? Its error on the GPU beside the two emulated orders'
models: one chain over K (1.8e-8 sqrt(K) on uniform inputs, this record) and K in shallow slices (the guard record's
cuBLAS-like order, about 3e-7 from K = 4096). Needs a GPU and PyTorch.

    python3 docs/experiments/2026-12-05-ozaki-seven-moduli/cublas_orders.py [--sides ...] [--ks ...]

Uniform [-1, 1] inputs drawn on the GPU; the error is matmul_opt.accuracy.relative_error's, ||C - ref||_F over
||S||_F with ||S||_F^2 = sum_k ||A(:, k)||^2 ||B(k, :)||^2, the reference a float64 product on the GPU.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402


def relative_error(kernel: str, side: int, K: int, generator: torch.Generator) -> float:
    a = torch.rand(side, K, device="cuda", generator=generator) * 2 - 1
    b = torch.rand(K, side, device="cuda", generator=generator) * 2 - 1
    reference = a.double() @ b.double()
    scale2 = ((a.double() ** 2).sum(0) * (b.double() ** 2).sum(1)).sum()
    C = matmul_opt.run(kernel, a, b)
    return float(torch.linalg.norm(C.double() - reference) / scale2.sqrt())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sides", type=int, nargs="+", default=[256, 512, 1024, 2048, 4096, 8192])
    parser.add_argument("--ks", type=int, nargs="+", default=[4096, 16384, 65536])
    parser.add_argument("--kernels", nargs="+", default=["cublas", "ozaki_int8"])
    args = parser.parse_args()
    generator = torch.Generator(device="cuda").manual_seed(0)
    print("side x K x side, uniform inputs; error, and in brackets over the one-chain model 1.8e-8 sqrt(K)")
    for K in args.ks:
        for side in args.sides:
            cells = []
            for kernel in args.kernels:
                error = relative_error(kernel, side, K, generator)
                cells.append(f"{kernel} {error:9.2e} ({error / (1.8e-8 * math.sqrt(K)):5.2f})")
            print(f"{side:>5} x {K:<6} " + " | ".join(cells), flush=True)
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
