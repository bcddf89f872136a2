"""One ozaki_int8 product on GPU-resident random inputs per size, for a profiler to split into its kernels:

    ncu --clock-control none --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-03-ozaki-rung/phases.py 4096 8192
"""
import sys

import torch

import matmul_opt

for n in map(int, sys.argv[1:]):
    A = torch.rand(n, n, device="cuda") * 2 - 1
    B = torch.rand(n, n, device="cuda") * 2 - 1
    for _ in range(2):
        matmul_opt.run("ozaki_int8", A, B)
    torch.cuda.synchronize()
