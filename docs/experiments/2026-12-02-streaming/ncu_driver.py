"""Runs one product a few times on device-resident torch tensors, for Nsight Compute to profile one launch.

python3 ncu_driver.py KERNEL M N K
"""
import sys

import torch

import matmul_opt

kernel, m, n, k = sys.argv[1], *map(int, sys.argv[2:5])
a = torch.rand(m, k, device="cuda") * 2 - 1
b = torch.rand(k, n, device="cuda") * 2 - 1
for _ in range(4):
    c = matmul_opt.run(kernel, a, b)
torch.cuda.synchronize()
print(kernel, m, n, k, float((c.double() - a.double() @ b.double()).norm() / (a.double() @ b.double()).norm()))
