"""Per-call cost of small products through run(), for the matmul_opt package of TREE (GPU, PyTorch and CuPy needed),
and what CuPy's and PyTorch's attribute reads and allocations cost.

    python3 docs/experiments/2026-12-01-small-calls/small_call_probe.py TREE [--parts]

TREE is a directory holding a matmul_opt package with its libmatmul.so; the rows are those of scripts/end_to_end.py
at 64^3 (benchmarks/end_to_end.py's helpers: back-to-back calls for GPU arrays, synchronised calls from NumPy).
--parts adds microseconds per operation (timeit, best of 5 rounds) for the reads the short paths make."""
import sys
import timeit
from pathlib import Path

tree = Path(sys.argv[1]).resolve()
sys.path[:0] = [str(tree), str(Path(__file__).resolve().parents[3])]
import matmul_opt  # noqa: E402
from benchmarks.end_to_end import Operands, call_repetitions, call_seconds, enqueue_seconds  # noqa: E402

assert Path(matmul_opt.__file__).resolve().parent.parent == tree, matmul_opt.__file__
print(f"tree {tree.name}")
for source in ("torch", "cupy"):
    operands = Operands(source, 64, "best")
    print(f"  {source} 64^3 run() per call     {enqueue_seconds(operands.call, operands.synchronize) * 1e6:7.2f} us")
    print(f"  {source} 64^3 a @ b per call     "
          f"{enqueue_seconds(operands.library_matmul, operands.synchronize) * 1e6:7.2f} us")
operands = Operands("numpy", 64, "best")
print(f"  numpy 64^3 run() synchronised {call_seconds(operands, call_repetitions(64)) * 1e6:7.2f} us")

if "--parts" in sys.argv:
    import cupy
    import numpy as np
    import torch

    def us(f, number=20000):
        f()
        return min(timeit.repeat(f, number=number, repeat=5)) / number * 1e6

    f32 = np.dtype(np.float32)
    ca = cupy.asarray(np.ones((64, 64), np.float32))
    ta = torch.ones((64, 64), device="cuda")
    rows = {
        "cupy x.dtype != np.float32": lambda: ca.dtype != np.float32,
        "cupy x.dtype != np.dtype(float32), cached": lambda: ca.dtype != f32,
        "cupy x.device.id": lambda: ca.device.id,
        "cupy x.data.device_id": lambda: ca.data.device_id,
        "cupy x.data.ptr": lambda: ca.data.ptr,
        "cupy x.shape, x.strides": lambda: (ca.shape, ca.strides),
        "cupy cupy.cuda.runtime.getDevice()": cupy.cuda.runtime.getDevice,
        "cupy cupy.cuda.get_current_stream().ptr": lambda: cupy.cuda.get_current_stream().ptr,
        "cupy cupy.empty((64, 64), np.float32)": lambda: cupy.empty((64, 64), dtype=np.float32),
        "cupy cupy.ndarray((64, 64), dtype)": lambda: cupy.ndarray((64, 64), f32),
        "torch x.new_empty((64, 64))": lambda: ta.new_empty((64, 64)),
        "torch torch.empty((64, 64), device=...)": lambda: torch.empty((64, 64), device=ta.device),
        "torch x.data_ptr(), x.stride(), x.shape": lambda: (ta.data_ptr(), ta.stride(), ta.shape),
    }
    print(f"cupy {cupy.__version__}, torch {torch.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}")
    for label, f in rows.items():
        print(f"  {label:<48}{us(f):7.2f} us")
