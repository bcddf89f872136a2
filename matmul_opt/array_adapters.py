"""The GPU array libraries that matmul_opt reads directly, behind one interface: which library made an array, and one
adapter per library (PyTorch, CuPy) for what matmul_opt asks of it (the plain operands of the short path, its current
stream, the allocation of a result); besides, results allocated through Numba, and contiguous copies made by an
array's own library. Nothing here imports a library: each is used only through the arrays it produced."""
from __future__ import annotations

import functools
import sys

import numpy as np

from .streams import LEGACY_STREAM

_FLOAT32 = np.dtype(np.float32)


def library_of(x) -> str:
    return library_of_type(type(x))


@functools.lru_cache(maxsize=None)
def library_of_type(kind: type) -> str:
    return kind.__module__.split(".")[0]


@functools.lru_cache(maxsize=None)
def torch_current_stream(torch):
    """The handle of PyTorch's current stream of a device: torch._C's raw query where this PyTorch has it (what the
    public torch.cuda.current_stream(device).cuda_stream reads, without building a Stream object), else that."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw if raw is not None else (lambda device: torch.cuda.current_stream(device).cuda_stream)


class TorchArrays:
    """What matmul_opt asks of PyTorch, through its tensors: the plain operands plain_gemm takes (float32 CUDA tensors
    without autograd, on one GPU), its current stream and the allocation of a result."""

    def __init__(self, torch):
        self.float32, self.current_stream = torch.float32, torch_current_stream(torch)

    def operands(self, A, B) -> tuple | None:
        """(A's pointer, shape and strides in elements, B's, their GPU) when both are plain, else None."""
        if A.dtype is not self.float32 or B.dtype is not self.float32 or A.requires_grad or B.requires_grad:
            return None
        device = A.get_device()  # -1 on the CPU
        if device < 0 or B.get_device() != device:
            return None
        return A.data_ptr(), A.shape, A.stride(), B.data_ptr(), B.shape, B.stride(), device

    def stream(self, device: int) -> int:
        """The handle of PyTorch's current stream of `device`."""
        return self.current_stream(device) or LEGACY_STREAM

    def allocate(self, x, rows: int, cols: int, device: int):
        """A new float32 rows x cols tensor on GPU `device`, which is x's (every operand of a call lies on one GPU),
        and its pointer."""
        # On x's GPU, of x's dtype (float32). Two ints, not a tuple: PyTorch parses them faster
        # (docs/experiments/2026-12-01-call-floor.md).
        result = x.new_empty(rows, cols)
        return result, result.data_ptr()


class CupyArrays:
    """What matmul_opt asks of CuPy, through its arrays: the plain operands plain_gemm takes (float32 arrays of the
    current GPU, strides of whole elements), its current stream and the allocation of a result. It reads the GPU
    from an array's memory pointer (ndarray.device builds a Device object) and allocates through the ndarray
    constructor, which cupy.empty calls."""

    def __init__(self, cupy):
        self.cupy = cupy
        self.current_device, self.current_stream = cupy.cuda.runtime.getDevice, cupy_current_stream(cupy)

    def operands(self, A, B) -> tuple | None:
        if A.dtype != _FLOAT32 or B.dtype != _FLOAT32:
            return None
        a, b = A.data, B.data
        device = a.device_id
        if b.device_id != device or device != self.current_device():  # plain_gemm allocates on the current GPU
            return None
        (a0, a1), (b0, b1) = A.strides, B.strides
        if a0 % 4 or a1 % 4 or b0 % 4 or b1 % 4:
            return None
        return a.ptr, A.shape, (a0 // 4, a1 // 4), b.ptr, B.shape, (b0 // 4, b1 // 4), device

    def stream(self, device: int) -> int:
        """The handle of CuPy's current stream of GPU `device`."""
        return self.current_stream(device).ptr or LEGACY_STREAM

    def allocate(self, x, rows: int, cols: int, device: int):
        """A new float32 rows x cols array on GPU `device`, and its pointer."""
        if device == self.current_device():
            result = self.cupy.ndarray((rows, cols), _FLOAT32)
        else:
            with self.cupy.cuda.Device(device):
                result = self.cupy.ndarray((rows, cols), _FLOAT32)
        return result, result.data.ptr


def cupy_current_stream(cupy):
    """CuPy's current stream of a GPU: get_current_stream(device_id) where this CuPy keeps one per GPU, else its one
    current stream."""
    get = cupy.cuda.get_current_stream
    try:
        get(-1)  # -1: the current GPU's
    except TypeError:  # no device_id parameter
        return lambda device: get()
    return get


ARRAY_LIBRARIES = {"torch": (TorchArrays, "Tensor"), "cupy": (CupyArrays, "ndarray")}
ADAPTERS: dict[type, object] = {}  # by operand type; None for types of no library above
UNSEEN = object()


def adapter_of(kind: type):
    """The adapter of PyTorch's tensors and CuPy's arrays (subclasses included), made on first sight of the type;
    None for any other type."""
    adapter = ADAPTERS.get(kind, UNSEEN)
    if adapter is UNSEEN:
        library_name = library_of_type(kind)
        known, module = ARRAY_LIBRARIES.get(library_name), sys.modules.get(library_name)
        ours = known is not None and module is not None and any(c.__name__ == known[1] for c in kind.__mro__)
        adapter = ADAPTERS[kind] = known[0](module) if ours else None
    return adapter


ALLOCATING_LIBRARIES = ("torch", "cupy", "numba")


def allocate_like(x, shape: tuple[int, int], device: int):
    """A new float32 array of `shape` on GPU `device`, from x's own library."""
    adapter = adapter_of(type(x))
    if adapter is not None:
        return adapter.allocate(x, *shape, device)[0]
    library_name = library_of(x)
    if library_name == "numba":
        from numba import cuda

        with cuda.gpus[device]:
            return cuda.device_array(shape, dtype=np.float32)
    raise cannot_allocate(library_name)


def cannot_allocate(library_name: str) -> ValueError:
    return ValueError(f"matmul_opt cannot allocate a result through {library_name} (it allocates through CuPy, "
                      "PyTorch and Numba); pass out=, a writable float32 GPU array of the result's shape")


def contiguous_copy(x, name: str):
    """x with rows contiguous, made on the GPU by x's own library."""
    library_name = library_of(x)
    if library_name == "torch":
        return x.contiguous()
    if library_name == "cupy":
        import cupy

        return cupy.ascontiguousarray(x)
    raise ValueError(f"{name} has strides that are neither row- nor column-contiguous; pass a contiguous array "
                     "(its library's ascontiguousarray or .contiguous())")
