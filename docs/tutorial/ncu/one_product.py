"""One product of one kernel on device-resident PyTorch tensors, after two of warm-up, between cudaProfilerStart and
cudaProfilerStop: what Nsight Compute profiles under --profile-from-start off (every launch of the product, the
library's own passes included, and nothing of PyTorch's).

    python3 docs/tutorial/ncu/one_product.py KERNEL M N K
"""
import sys

import torch

import matmul_opt

kernel, m, n, k = sys.argv[1], *map(int, sys.argv[2:5])
a = torch.rand(m, k, device="cuda") * 2 - 1
b = torch.rand(k, n, device="cuda") * 2 - 1
for _ in range(2):
    matmul_opt.run(kernel, a, b)
torch.cuda.synchronize()
torch.cuda.profiler.start()
c = matmul_opt.run(kernel, a, b)
torch.cuda.synchronize()
torch.cuda.profiler.stop()
reference = a.double() @ b.double()
print(kernel, m, n, k, "relative error", float((c.double() - reference).norm() / reference.norm()))
