"""A GPU array as the library takes it (DeviceMatrix: pointer, shape and strides in elements), read from its
__cuda_array_interface__ or, for PyTorch and CuPy, from the arrays' own attributes; which objects are GPU arrays; and
the refusal of another dtype, written once."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ._layout import Operand, check_shape, element_strides, layout
from .array_adapters import adapter_of, library_of


def is_device_array(x) -> bool:
    """True for objects that export __cuda_array_interface__ or DLPack (NumPy arrays are host arrays)."""
    if isinstance(x, np.ndarray):
        return False
    if is_cuda_tensor(x):  # PyTorch builds its interface dict in Python on every access: ask it directly
        return True
    return hasattr(x, "__cuda_array_interface__") or (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"))


def requires_grad(A, B) -> bool:
    """True when A or B is a PyTorch tensor that requires grad (read without importing PyTorch)."""
    return any(library_of(x) == "torch" and getattr(x, "requires_grad", False) is True for x in (A, B))


def is_cuda_tensor(x) -> bool:
    return library_of(x) == "torch" and getattr(x, "is_cuda", False) is True


@dataclass
class DeviceMatrix:
    """A 2-D float32 GPU array as the library takes it: the pointer, shape and strides in elements."""

    owner: object  # the producer's array, kept alive while the work runs
    ptr: int
    shape: tuple[int, int]
    strides: tuple[int, int]
    readonly: bool = False
    stream: int | None = None  # the producer's stream with pending writes, when it says
    device: int | None = None  # the GPU, when the producer says (DLPack, PyTorch, CuPy); else asked of the library
    keepalive: list = field(default_factory=list)

    @functools.cached_property
    def operand(self) -> Operand | None:
        """(op, leading dimension, pointer) when the rows or the columns are contiguous; None otherwise."""
        found = layout(self.shape, self.strides)
        return None if found is None else (*found, self.ptr)


def dtype_error(name: str, found: str, x) -> TypeError:
    hint = {"torch": f"{name}.float()", "cupy": f"{name}.astype(cupy.float32)"}.get(library_of(x), "a float32 copy")
    return TypeError(f"{name} has dtype {found}, expected float32; convert it with {hint}")


def from_cuda_array_interface(x, name: str) -> DeviceMatrix:
    """The matrix behind x.__cuda_array_interface__ (version 2 or 3)."""
    iface = x.__cuda_array_interface__
    if not isinstance(iface, dict) or iface.get("version") not in (2, 3):
        version = iface.get("version") if isinstance(iface, dict) else None
        raise ValueError(f"{name}'s __cuda_array_interface__ has version {version!r}; versions 2 and 3 are supported")
    try:
        shape, typestr, (ptr, readonly) = iface["shape"], iface["typestr"], iface["data"]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{name}'s __cuda_array_interface__ lacks shape, typestr or data: {exc}") from exc
    rows, cols = check_shape(name, shape)
    if np.dtype(typestr) != np.float32:
        raise dtype_error(name, np.dtype(typestr).name, x)
    if iface.get("mask") is not None:
        raise ValueError(f"{name} has a mask; masked arrays are not supported")
    strides = element_strides(name, iface.get("strides") or (cols * 4, 4))
    stream = iface.get("stream") if iface["version"] >= 3 else None
    if stream == 0:
        raise ValueError(f"{name}'s __cuda_array_interface__ names stream 0, which the interface disallows")
    return DeviceMatrix(x, int(ptr or 0), (rows, cols), strides, bool(readonly), stream)


def from_torch(x, name: str) -> DeviceMatrix:
    """The matrix behind a PyTorch CUDA tensor, read from the tensor's own attributes (what its
    __cuda_array_interface__ reports, at a fraction of the cost)."""
    import torch  # already imported: x is a tensor

    rows, cols = check_shape(name, x.shape)
    if x.dtype != torch.float32:
        raise dtype_error(name, str(x.dtype).removeprefix("torch."), x)
    if x.requires_grad:
        raise ValueError(f"{name} requires grad, and matmul_opt records the backward of the plain product alone "
                         f"(matmul(A, B), or run(kernel, A, B) without out=, alpha, beta or stream=); pass "
                         f"{name}.detach() to compute this one without it")
    return DeviceMatrix(x, x.data_ptr(), (rows, cols), tuple(x.stride()), device=x.device.index)


def from_cupy(x, name: str) -> DeviceMatrix:
    """The matrix behind a CuPy array, read from its attributes; its producer stream is CuPy's current stream (what
    its __cuda_array_interface__ v3 names)."""
    rows, cols = check_shape(name, x.shape)
    if x.dtype != np.float32:
        raise dtype_error(name, x.dtype.name, x)
    strides = element_strides(name, x.strides)
    device = x.device.id
    return DeviceMatrix(x, x.data.ptr, (rows, cols), strides, stream=adapter_of(type(x)).stream(device),
                        device=device)


def from_array_interface(x, name: str) -> DeviceMatrix | None:
    """The matrix of an operand that needs no DLPack export: PyTorch and CuPy arrays, read directly, and other
    __cuda_array_interface__ exporters; None for an operand that only DLPack describes."""
    library_name = library_of(x)
    if library_name == "torch" and is_cuda_tensor(x):
        return from_torch(x, name)
    if library_name == "cupy" and type(x).__name__ == "ndarray":
        return from_cupy(x, name)
    if hasattr(x, "__cuda_array_interface__"):
        return from_cuda_array_interface(x, name)
    return None
