"""Errors of FP32 kernels against cuBLAS fp32's on the same inputs: on every shape of the grid (and the held-out
shapes) and on 256 x K x 256 at K = 1 to 2^20, both input kinds of matmul_opt.accuracy. The float64 reference and
the error scale are computed on the GPU (PyTorch), so that the largest shapes take seconds.

    python3 docs/experiments/2026-12-03-pairwise/accuracy.py KERNEL... [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import sys

import torch

import matmul_opt
from matmul_opt.shape_grid import GRID, HELD_OUT

KINDS = ("uniform", "spread")
SQUARE_KS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576)


def draw(kind: str, shape, generator: torch.Generator) -> torch.Tensor:
    u = torch.rand(shape, generator=generator, device="cuda", dtype=torch.float64)
    if kind == "uniform":
        return (2 * u - 1).float()
    sign = torch.where(torch.rand(shape, generator=generator, device="cuda") < 0.5, -1.0, 1.0).double()
    return (torch.exp2(80 * u - 40) * sign).float()


def errors(kernels, M: int, N: int, K: int, kind: str, generator: torch.Generator) -> dict[str, float]:
    A, B = draw(kind, (M, K), generator), draw(kind, (K, N), generator)
    A64, B64 = A.double(), B.double()
    reference = A64 @ B64
    scale = torch.linalg.norm(torch.sqrt((A64 * A64) @ (B64 * B64))).item()
    out = {}
    for kernel in kernels:
        C = matmul_opt.run(kernel, A, B)
        torch.cuda.synchronize()
        out[kernel] = torch.linalg.norm(C.double() - reference).item() / scale
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("kernels", nargs="+")
    parser.add_argument("--json")
    args = parser.parse_args()
    kernels = list(dict.fromkeys(["cublas", *args.kernels]))
    generator = torch.Generator(device="cuda")
    generator.manual_seed(20261203)
    shapes = [("grid", s.klass, s.M, s.N, s.K) for s in GRID] + [("held-out", s.klass, s.M, s.N, s.K) for s in HELD_OUT]
    shapes += [("square", "256xKx256", 256, 256, K) for K in SQUARE_KS]
    rows = []
    print(f"{'set':<9}{'class':<11}{'shape':<18}{'kind':<8}" + "".join(f"{k:>20}" for k in kernels))
    for where, klass, M, N, K in shapes:
        for kind in KINDS:
            e = errors(kernels, M, N, K, kind, generator)
            rows.append({"set": where, "klass": klass, "M": M, "N": N, "K": K, "kind": kind, "errors": e})
            cells = "".join(f"{e[k]:>11.2e} ({e[k] / e['cublas']:4.2f}x)" for k in kernels)
            print(f"{where:<9}{klass:<11}{f'{M}x{N}x{K}':<18}{kind:<8}{cells}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
