"""What a 64^3 run() on GPU arrays costs with each of its parts taken out in turn (GPU, PyTorch and CuPy needed).

    PYTHONPATH=. python3 docs/experiments/2026-12-01-call-floor/floor_probe.py [ROUNDS]

Per library (PyTorch, CuPy), microseconds per call of 2000 back-to-back calls synchronised once (median of 5), in
ROUNDS interleaved rounds (default 3):
- the library's own `a @ b`, and run('best', a, b) as it is;
- run() with the C entry replaced by a ctypes call of libc's srand (same argument types; it returns nothing, which
  run() reads as success): Python, the array library and the allocation, without the product;
- run() with the result's allocation replaced by a preallocated array (the adapter's allocate patched);
- the C entry alone through ctypes (one call struct packed once, the same operands every call);
- the allocation alone, and srand alone through ctypes (the floor of any ctypes call).
Then PyTorch's ways to allocate a 64 x 64 float32 tensor, each alone."""
import ctypes
import sys

import cupy
import numpy as np
import torch

import matmul_opt
from benchmarks.end_to_end import enqueue_seconds
from matmul_opt import _library, device_arrays

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
N = 64


def per_call(call, synchronize):
    """Microseconds per call of back-to-back calls (benchmarks/end_to_end.py's timing of the 64^3 rows)."""
    return enqueue_seconds(call, synchronize) * 1e6


libc = ctypes.CDLL(None)
srand = libc.srand
srand.argtypes, srand.restype = [ctypes.c_void_p], None
lib = _library.library()
tracked_entry = lib.mm_gemm_async_tracked
rng = np.random.default_rng(0)
host = [rng.uniform(-1, 1, (N, N)).astype(np.float32) for _ in range(2)]


def cases(name):
    if name == "torch":
        a, b = (torch.from_numpy(x).cuda() for x in host)
        synchronize, allocate = torch.cuda.synchronize, lambda: a.new_empty((N, N))
    else:
        a, b = (cupy.asarray(x) for x in host)
        synchronize, allocate = cupy.cuda.runtime.deviceSynchronize, lambda: cupy.ndarray((N, N), np.float32)
    adapter = device_arrays._adapter_of(type(a))
    pointer_of = (lambda x: x.data_ptr()) if name == "torch" else (lambda x: x.data.ptr)
    preallocated = allocate()
    pointer = pointer_of(preallocated)
    call, address = _library.thread_call()

    def without_entry():
        lib.mm_gemm_async_tracked = srand
        call.tracking.ticket = call.tracking.finished_through = 0  # ticket 0: nothing held, as if refused
        try:
            return per_call(lambda: matmul_opt.run("best", a, b), synchronize)
        finally:
            lib.mm_gemm_async_tracked = tracked_entry

    def without_allocation():
        adapter.allocate = lambda *arguments: (preallocated, pointer)  # either signature
        try:
            return per_call(lambda: matmul_opt.run("best", a, b), synchronize)
        finally:
            del adapter.allocate

    def entry_alone():
        _library.pack_tracked(call, 0, _library.kernel_name_addresses()["best"], 0, 0, N, N, N, 1.0, pointer_of(a), N,
                              pointer_of(b), N, 0.0, pointer, N, adapter.stream(0))
        return per_call(lambda: tracked_entry(address), synchronize)

    return {
        "own a @ b": lambda: per_call(lambda: a @ b, synchronize),
        "run()": lambda: per_call(lambda: matmul_opt.run("best", a, b), synchronize),
        "run(), C entry -> srand": without_entry,
        "run(), allocation -> preallocated": without_allocation,
        "C entry alone (ctypes)": entry_alone,
        "allocation alone": lambda: per_call(allocate, synchronize),
        "srand alone (ctypes)": lambda: per_call(lambda: srand(address), synchronize),
    }


print(f"torch {torch.__version__}, cupy {cupy.__version__}, numpy {np.__version__}, python {sys.version.split()[0]}")
tables = {name: cases(name) for name in ("torch", "cupy")}
results = {(name, row): [] for name, rows in tables.items() for row in rows}
for _ in range(ROUNDS):
    for name, rows in tables.items():
        for row, measure in rows.items():
            results[name, row].append(measure())
for (name, row), values in results.items():
    print(f"{name:6} {row:36} " + " / ".join(f"{v:6.2f}" for v in values) + " us")

a = torch.from_numpy(host[0]).cuda()
device = a.device
allocations = {
    "a.new_empty((64, 64))": lambda: a.new_empty((N, N)),
    "a.new_empty(64, 64)": lambda: a.new_empty(N, N),
    "torch.empty((64, 64), device=a.device)": lambda: torch.empty((N, N), device=device),
    "torch.empty((64, 64), device=0)": lambda: torch.empty((N, N), device=0),
    "torch.empty_like(a)": lambda: torch.empty_like(a),
    "a.new_empty_strided((64, 64), (64, 1))": lambda: a.new_empty_strided((N, N), (N, 1)),
    "torch.ops.aten.empty.memory_format": lambda: torch.ops.aten.empty.memory_format([N, N], dtype=torch.float32,
                                                                                  device=device),
}
for row, allocate in allocations.items():
    values = [per_call(allocate, torch.cuda.synchronize) for _ in range(ROUNDS)]
    print(f"torch  {row:44} " + " / ".join(f"{v:6.2f}" for v in values) + " us")
