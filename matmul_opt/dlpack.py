"""DLPack operands: the C structs of dlpack.h, the device check that needs no export, the export itself (its producer
orders its pending writes before the stream it is given) and the deleters, run once the work that read them has
finished."""
from __future__ import annotations

import ctypes

from ._layout import check_shape
from .device_matrix import DeviceMatrix, dtype_error

# DLPack device types (dlpack.h): CUDA memory, and memory managed across host and CUDA devices.
_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13
_DLPACK_DEVICE_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA host (pinned)", 4: "OpenCL", 7: "Vulkan", 8: "Metal",
                        10: "ROCm", 13: "CUDA managed", 14: "oneAPI"}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    pass


_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                             ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor)))]

_capsule_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get_pointer.restype, _capsule_get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
_capsule_set_name = ctypes.pythonapi.PyCapsule_SetName
_capsule_set_name.restype, _capsule_set_name.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
_capsule_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is_valid.restype, _capsule_is_valid.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]


def dlpack_device(x, name: str) -> int:
    """The GPU of a DLPack operand, from __dlpack_device__ (no export); ValueError for a non-CUDA device."""
    device_type, device_id = x.__dlpack_device__()
    if device_type not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
        where = _DLPACK_DEVICE_NAMES.get(int(device_type), f"type {device_type}")
        raise ValueError(f"{name} lives on a DLPack {where} device, not a CUDA GPU; move it to the GPU or pass a "
                         "NumPy array")
    return int(device_id)


def from_dlpack(x, name: str, stream: int) -> DeviceMatrix:
    """The matrix behind x.__dlpack__(stream=stream): the producer orders its pending writes before `stream`."""
    device_id = dlpack_device(x, name)
    capsule = x.__dlpack__(stream=stream)
    if not _capsule_is_valid(capsule, b"dltensor"):
        raise ValueError(f"{name}.__dlpack__() returned no usable DLPack capsule")
    managed = ctypes.cast(_capsule_get_pointer(capsule, b"dltensor"), ctypes.POINTER(_DLManagedTensor))
    _capsule_set_name(capsule, b"used_dltensor")  # consumed: the capsule no longer frees it, release() does
    release = DLPackRelease(managed)
    try:
        tensor = managed.contents.dl_tensor
        if tensor.ndim != 2:
            raise ValueError(f"{name} must be 2-D (a matrix), got {tensor.ndim}-D")
        dtype = tensor.dtype
        if (dtype.code, dtype.bits, dtype.lanes) != (2, 32, 1):  # kDLFloat, 32 bits, 1 lane
            raise dtype_error(name, f"DLPack code {dtype.code}, {dtype.bits} bits x {dtype.lanes}", x)
        rows, cols = check_shape(name, (tensor.shape[0], tensor.shape[1]))
        strides = (tensor.strides[0], tensor.strides[1]) if tensor.strides else (cols, 1)
        ptr = (tensor.data or 0) + tensor.byte_offset
    except BaseException:
        release()
        raise
    return DeviceMatrix(x, ptr, (rows, cols), strides, device=device_id, keepalive=[release])


class DLPackRelease:
    """Calls a consumed DLPack tensor's deleter once, when the work that read it has finished."""

    def __init__(self, managed):
        self.managed = managed

    def __call__(self):
        if self.managed is not None and self.managed.contents.deleter:
            self.managed.contents.deleter(self.managed)
        self.managed = None


def release_exports(parsed: dict[str, DeviceMatrix]) -> None:
    """Gives the consumed DLPack tensors back to their producers (their deleters run once)."""
    for matrix in parsed.values():
        for release in matrix.keepalive:
            release()
