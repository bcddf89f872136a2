"""Pinned (page-locked) NumPy arrays: matmul_opt.empty_pinned(shape).

The host path copies ordinary (pageable) NumPy memory through pinned staging buffers, which costs CPU time and
memory bandwidth on top of the copies to and from the GPU; the copy engines read and write pinned memory where it
lies, at the host link's full speed. Arrays that are multiplied again and again (or are large) gain from living in
pinned memory. Pinned memory is taken from the operating system's pool of physical memory, which it cannot page
out, and allocating it is slow (milliseconds for tens of MiB): allocate such arrays once and reuse them.
"""
from __future__ import annotations

import ctypes
import math
import threading
import weakref

import numpy as np

from ._library import check, library


_lock = threading.Lock()
_pinned_bytes = 0  # held by pinned arrays alive


def array_over(address: int, shape: tuple[int, ...], dtype: np.dtype, release, *args) -> np.ndarray:
    """A NumPy array of `shape` and `dtype` over memory at `address` that the caller owns: release(*args) runs when
    the last array over that memory goes (not at the process's exit, which frees it anyway, and after which CUDA may
    be gone)."""
    return np.asarray(_MemoryOwner(address, shape, dtype, release, args))


class _MemoryOwner:
    """What NumPy sees through __array_interface__, the base of every array over the memory; its finalizer is the
    release."""

    def __init__(self, address, shape, dtype, release, args):
        self.__array_interface__ = {"shape": shape, "typestr": dtype.str, "data": (address, False), "version": 3}
        weakref.finalize(self, release, *args).atexit = False


def _count(nbytes: int) -> None:
    global _pinned_bytes
    with _lock:
        _pinned_bytes += nbytes


def _free(host_free, pointer: int, nbytes: int) -> None:
    host_free(pointer)
    _count(-nbytes)


def held_bytes() -> int:
    """Bytes of empty_pinned's arrays alive."""
    return _pinned_bytes


def empty_pinned(shape, dtype=np.float32) -> np.ndarray:
    """An uninitialised C-ordered array of `shape` in pinned host memory (usable with every GPU); it behaves as any
    NumPy array, and run() copies it to and from the GPU without staging. Raises NoDeviceError without a GPU."""
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if not all(isinstance(n, (int, np.integer)) and n >= 0 for n in shape):
        raise ValueError(f"shape must be non-negative integers, got {shape!r}")
    shape = tuple(int(n) for n in shape)
    dtype = np.dtype(dtype)
    if dtype.hasobject:
        raise TypeError(f"pinned arrays hold plain numbers; dtype {dtype} holds Python objects")
    lib = library()
    pointer = ctypes.c_void_p()
    nbytes = math.prod(shape) * dtype.itemsize
    check(lib.mm_host_alloc(nbytes, ctypes.byref(pointer)))
    _count(nbytes)
    return array_over(pointer.value, shape, dtype, _free, lib.mm_host_free, pointer.value, nbytes)
