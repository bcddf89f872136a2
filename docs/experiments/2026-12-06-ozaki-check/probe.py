"""One ozaki_int8 product per shape given (argv: MxNxK ...), on device-resident random inputs (PyTorch), for Nsight
Compute to profile its passes (GPU needed; the library MATMUL_OPT_LIBRARY names, else the package's)."""
import sys

import torch

import matmul_opt

for shape in sys.argv[1:]:
    M, N, K = (int(x) for x in shape.split("x"))
    a = torch.rand(M, K, device="cuda") * 2 - 1
    b = torch.rand(K, N, device="cuda") * 2 - 1
    matmul_opt.run("ozaki_int8", a, b)
    torch.cuda.synchronize()
