"""What run() costs in Python alone, on a machine without a GPU: the package of TREE against a stub libmatmul (every
entry returns MM_OK; the tracked entry reports each call finished by the next) and a stand-in PyTorch tensor.

    python3 docs/experiments/2026-12-01-small-calls/standin_timing.py TREE [--old-tracked-entry]

--old-tracked-entry stubs mm_gemm_async_tracked with the four arguments it took before mm_tracked_gemm (dfbc66f).
Prints microseconds per call (timeit, best of 5 rounds of 20000) at 64^3, for two stand-in tensors and two NumPy
arrays."""
import ctypes
import re
import subprocess
import sys
import tempfile
import timeit
import types
from pathlib import Path

tree = Path(sys.argv[1]).resolve()
old_entry = "--old-tracked-entry" in sys.argv
names = sorted(set(re.findall(r'"(mm_[a-z_0-9]+)"', (tree / "matmul_opt/_library.py").read_text())))
report = "t->ticket++; t->finished = t->ticket - 1; return 0;"
tracked = ("int mm_gemm_async_tracked(void* k, void* p, void* s, track* t) { " + report + " }" if old_entry else
           "int mm_gemm_async_tracked(char* call) { track* t = (track*)(call + 112); " + report + " }")
source = "typedef struct { unsigned long long ticket, finished; } track;\n" + tracked + "\n" + "".join(
    f"int {n}(void* a, void* b, void* c, void* d) {{ return 0; }}\n" for n in names if n != "mm_gemm_async_tracked")
build = Path(tempfile.mkdtemp())
(build / "stub.c").write_text(source)
subprocess.run(["cc", "-O2", "-shared", "-fPIC", str(build / "stub.c"), "-o", str(build / "libstub.so")], check=True)

torch = types.ModuleType("torch")  # the tensor attributes plain_gemm reads
torch.float32 = "torch.float32"
torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: 7)


class Tensor:
    def __init__(self, shape):
        self.shape, self._stride, self.dtype, self.requires_grad, self.is_cuda = shape, (shape[1], 1), torch.float32, \
            False, True

    def stride(self):
        return self._stride

    def data_ptr(self):
        return 1 << 40

    def get_device(self):
        return 0

    def new_empty(self, shape):
        return Tensor(shape)


Tensor.__module__ = "torch"
torch.Tensor = Tensor
sys.modules["torch"] = torch
sys.path.insert(0, str(tree))
import numpy as np  # noqa: E402
import matmul_opt  # noqa: E402
from matmul_opt import _library  # noqa: E402

lib = ctypes.CDLL(str(build / "libstub.so"))
for name, (restype, argtypes) in _library._SIGNATURES.items():
    function = getattr(lib, name)
    function.restype, function.argtypes = restype, argtypes
_library._library = lib
kernel = ctypes.create_string_buffer(b"best")
if hasattr(_library, "kernel_name_addresses"):
    _library.kernel_name_addresses.cache_clear()
    addresses = {"best": ctypes.addressof(kernel)}
    _library.kernel_name_addresses = lambda: addresses
    for module in (matmul_opt.api, matmul_opt.device_arrays):
        if hasattr(module, "kernel_name_addresses"):
            module.kernel_name_addresses = _library.kernel_name_addresses
else:
    matmul_opt.api._known_names = lambda: frozenset(["best"])
tensors = Tensor((64, 64)), Tensor((64, 64))
arrays = [np.random.default_rng(0).uniform(-1, 1, (64, 64)).astype(np.float32) for _ in range(2)]
for label, call in (("stand-in tensors", lambda: matmul_opt.run("best", *tensors)),
                    ("NumPy arrays", lambda: matmul_opt.run("best", *arrays))):
    for _ in range(3000):
        call()
    print(f"{tree.name}: run() on {label}, {min(timeit.repeat(call, number=20000, repeat=5)) / 20000 * 1e6:.2f} us")
