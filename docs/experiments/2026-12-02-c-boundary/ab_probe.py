"""One process of the C boundary's A/B: the 64^3 costs of the library that MATMUL_OPT_LIBRARY names.

    MATMUL_OPT_LIBRARY=/path/to/libmatmul.so python3 docs/experiments/2026-12-02-c-boundary/ab_probe.py LABEL

Prints one line: LABEL, then microseconds per call of run() synchronised from NumPy (median of 500), from PyTorch
tensors (median of 500), and back to back on PyTorch tensors (benchmarks.end_to_end.enqueue_seconds, 2000 calls a
round). ab_rounds.sh alternates processes of the two libraries.
"""
import sys

from benchmarks.end_to_end import Operands, call_seconds, enqueue_seconds

label = sys.argv[1]
numpy_call = Operands("numpy", 64)
torch_call = Operands("torch", 64)
cells = [call_seconds(numpy_call, 500), call_seconds(torch_call, 500),
         enqueue_seconds(torch_call.call, torch_call.synchronize)]
print(label, " ".join(f"{1e6 * s:8.2f}" for s in cells), flush=True)
