"""Per-call cost of small products whose call launches more than one kernel, beside the plain call (GPU and PyTorch
needed): each kernel of such a call goes through its own graph (cuda/core/launch.h).

    PYTHONPATH=TREE:. python3 docs/experiments/2026-12-01-call-floor/multi_kernel_probe.py

Rows, PyTorch tensors, µs per call of back-to-back calls (benchmarks/end_to_end.py's timing):
- best at 64^3, plain (one kernel);
- best at 64^3 with alpha, beta and out= (the product into a workspace, then a pass over C: two kernels);
- naive on A.T at 64^3 (naive takes row-major operands only: a transposition pass, then the kernel);
- splitk at 64 x 64 x 4096 (the K slices, then their reduction)."""
import torch

import matmul_opt
from benchmarks.end_to_end import enqueue_seconds

a, b, c = (torch.rand(64, 64, device="cuda") for _ in range(3))
long_a, long_b = torch.rand(64, 4096, device="cuda"), torch.rand(4096, 64, device="cuda")
rows = {
    "best, plain": lambda: matmul_opt.run("best", a, b),
    "best, alpha, beta, out=": lambda: matmul_opt.run("best", a, b, out=c, alpha=1.5, beta=0.5),
    "naive, A.T": lambda: matmul_opt.run("naive", a.T, b),
    "splitk, 64 x 64 x 4096": lambda: matmul_opt.run("splitk", long_a, long_b),
}
print(matmul_opt.__file__)
for label, call in rows.items():
    print(f"  {label:28} {enqueue_seconds(call, torch.cuda.synchronize) * 1e6:7.2f} us")
