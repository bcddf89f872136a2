"""One product of the kernel given per shape given, on device-resident random inputs (PyTorch), with only the
product inside the profiler's range, so that Nsight Compute (`--profile-from-start off`) sees the library's launches
alone (GPU needed; the library MATMUL_OPT_LIBRARY names, else the package's). A first product of each shape, outside
the range, loads the library's modules.

    python3 probe.py KERNEL MxNxK ...
"""
import sys

import torch

import matmul_opt

kernel = sys.argv[1]
for shape in sys.argv[2:]:
    M, N, K = (int(x) for x in shape.split("x"))
    a = torch.rand(M, K, device="cuda") * 2 - 1
    b = torch.rand(K, N, device="cuda") * 2 - 1
    matmul_opt.run(kernel, a, b)
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    matmul_opt.run(kernel, a, b)
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
