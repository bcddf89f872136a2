"""One product of the kernel given per shape (argv: KERNEL MxNxK ...), on device-resident random inputs (PyTorch),
twice (the second for Nsight Compute's --launch-skip), for Nsight Compute to profile (GPU needed; the library
MATMUL_OPT_LIBRARY names, else the package's)."""
import sys

import torch

import matmul_opt

for shape in sys.argv[2:]:
    M, N, K = (int(x) for x in shape.split("x"))
    a = torch.rand(M, K, device="cuda") * 2 - 1
    b = torch.rand(K, N, device="cuda") * 2 - 1
    for _ in range(2):
        matmul_opt.run(sys.argv[1], a, b)
    torch.cuda.synchronize()
