"""best on op = T operands: read as stored (the native path) against a transposition pass first (what the library
did before: a gather, here PyTorch's .contiguous(), which moves the same bytes) and then the N/N kernel.

    python3 docs/experiments/2026-12-01-native-op-t/op_t_timing.py

GPU time per product between CUDA events around 10 back-to-back calls, median of 7 rounds, random inputs in [-1, 1];
the four op combinations alternate inside every round, so drift hits them alike.
"""
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402


def operand(rows, cols, transposed):
    """A rows x cols matrix, stored row-major or as the transpose of a row-major cols x rows matrix."""
    if transposed:
        return torch.rand(cols, rows, device="cuda").mul_(2).sub_(1).t()
    return torch.rand(rows, cols, device="cuda").mul_(2).sub_(1)


def gpu_ms(call, calls=10):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        call()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / calls


def main():
    print(matmul_opt.device_info().name, "best, GPU ms per product: native op = T | transposition pass + N/N")
    for M, N, K in ((4096, 4096, 4096), (8192, 8192, 8192), (4095, 4097, 4093), (2048, 2048, 2048)):
        cases = {}
        for ops in ("NN", "NT", "TN", "TT"):
            a, b = operand(M, K, ops[0] == "T"), operand(K, N, ops[1] == "T")
            out = torch.empty(M, N, device="cuda")
            cases[ops] = (lambda a=a, b=b, out=out: matmul_opt.run("best", a, b, out=out),
                          lambda a=a, b=b, out=out: matmul_opt.run("best", a.contiguous(), b.contiguous(), out=out))
        times = {ops: ([], []) for ops in cases}
        for _ in range(7):
            for ops, (native, gathered) in cases.items():
                times[ops][0].append(gpu_ms(native))
                times[ops][1].append(gpu_ms(gathered))
        row = "  ".join(f"{ops} {statistics.median(t[0]):6.3f} | {statistics.median(t[1]):6.3f}" for ops, t in times.items())
        print(f"{M}x{N}x{K}:  {row}", flush=True)


if __name__ == "__main__":
    main()
