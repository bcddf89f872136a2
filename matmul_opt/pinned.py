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


# run() returns host-path results of at least this many bytes in pinned memory, as long as the pinned arrays alive
# stay under the limit (a soft one: callers in several threads at once may each pass it by one array): the copy
# engine writes them where they lie, and a recycled block (mm_host_free keeps freed ones) has its pages mapped
# already, while fresh pageable memory pays for mapping and zeroing every page as the result is written (on the H200
# machines more than the copy itself: docs/experiments/2026-12-01-host-streaming.md).
PINNED_RESULT_MIN_BYTES = 1 << 20
PINNED_RESULT_LIMIT_BYTES = 4 << 30

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
    """Bytes of pinned arrays alive (empty_pinned's and run()'s results)."""
    return _pinned_bytes


def result_array(shape: tuple[int, int]) -> np.ndarray:
    """A new float32 array for a host-path result: pinned while PINNED_RESULT_* allow, else ordinary memory."""
    nbytes = shape[0] * shape[1] * 4
    if PINNED_RESULT_MIN_BYTES <= nbytes and _pinned_bytes + nbytes <= PINNED_RESULT_LIMIT_BYTES:
        try:
            return empty_pinned(shape)
        except MemoryError:  # the system will not pin more: ordinary memory still works
            pass
    return np.empty(shape, dtype=np.float32)


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
