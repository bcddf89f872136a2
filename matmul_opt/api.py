"""The public functions: run, kernels, benchmark, device_info (tolerance comes from accuracy.py)."""
from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass

import numpy as np

from ._library import DeviceInfoStruct, KernelUnavailableError, check, library
from .accuracy import tolerance  # noqa: F401  (part of the API: matmul_opt.tolerance)

_INT_MAX = 2**31 - 1


@dataclass(frozen=True)
class KernelInfo:
    name: str
    description: str
    arithmetic: str  # "fp32" (IEEE fp32 FMAs) or "tf32" (inputs rounded to tf32 on tensor cores)


@dataclass(frozen=True)
class DeviceInfo:
    name: str
    sm_count: int
    compute_capability: tuple[int, int]
    total_memory_bytes: int
    free_memory_bytes: int
    sm_clock_mhz: float
    fp32_lanes_per_sm: int
    driver_version: int
    runtime_version: int

    @property
    def fp32_peak_gflops(self) -> float:
        """FP32 FMA peak: SMs x FMA lanes x 2 FLOP x SM clock (0 when the architecture is unknown)."""
        return self.sm_count * self.fp32_lanes_per_sm * 2 * self.sm_clock_mhz / 1e3


@dataclass(frozen=True)
class BenchmarkResult:
    kernel: str
    M: int
    N: int
    K: int
    ms: float

    @property
    def gflops(self) -> float:
        return 2.0 * self.M * self.N * self.K / (self.ms * 1e6)


def kernels() -> list[KernelInfo]:
    """Every registered kernel, in registry order (the rungs of the ladder, then the baselines)."""
    return list(_registry())


@functools.lru_cache(maxsize=None)
def _registry() -> tuple[KernelInfo, ...]:
    """Read once: the registry is fixed in the loaded library, and run() checks names against it every call."""
    lib = library()
    infos = []
    for index in range(lib.mm_kernel_count()):
        name, description, arithmetic = ctypes.c_char_p(), ctypes.c_char_p(), ctypes.c_int()
        check(lib.mm_kernel_name(index, ctypes.byref(name)))
        check(lib.mm_kernel_description(index, ctypes.byref(description)))
        check(lib.mm_kernel_arithmetic(index, ctypes.byref(arithmetic)))
        infos.append(KernelInfo(name.value.decode(), description.value.decode(), ("fp32", "tf32")[arithmetic.value]))
    return tuple(infos)


def kernel_names() -> list[str]:
    return [info.name for info in kernels()]


def _check_kernel(kernel) -> None:
    if not isinstance(kernel, str):
        raise TypeError(f"kernel must be a kernel name (str), got {type(kernel).__name__}")
    names = kernel_names()
    if kernel not in names:
        raise ValueError(f"unknown kernel {kernel!r}; valid kernels: {', '.join(names)}")


def _check_matrix(name: str, array) -> np.ndarray:
    if not isinstance(array, np.ndarray):
        raise TypeError(
            f"{name} must be a NumPy ndarray, got {type(array).__name__}; "
            f"convert it with np.asarray({name}, dtype=np.float32)"
        )
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-D (a matrix), got {array.ndim}-D with shape {array.shape}")
    if array.dtype != np.float32:
        if not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
            raise TypeError(f"{name} has non-numeric dtype {array.dtype}; only float32 matrices can be multiplied")
        if np.issubdtype(array.dtype, np.complexfloating):
            raise TypeError(f"{name} has complex dtype {array.dtype}; only real float32 matrices are supported")
        raise TypeError(f"{name} has dtype {array.dtype}, expected float32; convert it with {name}.astype(np.float32)")
    for axis, size in enumerate(array.shape):
        if size > _INT_MAX:
            raise ValueError(f"{name}.shape[{axis}] = {size} exceeds the library's limit of {_INT_MAX}")
    return array


def _row_major_view(array: np.ndarray) -> tuple[np.ndarray, int]:
    """An array whose rows are contiguous, and its leading dimension in elements; copies only if needed."""
    rows, columns = array.shape
    item = array.itemsize
    row_stride, column_stride = array.strides
    if (column_stride == item or columns <= 1) and row_stride > 0 and row_stride % item == 0:
        ld = row_stride // item
        if ld >= columns:
            return array, ld
    if rows <= 1 and (column_stride == item or columns <= 1):
        return array, max(columns, 1)
    contiguous = np.ascontiguousarray(array)
    return contiguous, max(columns, 1)


def run(kernel: str, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """C = A @ B on the GPU with the named kernel; returns a new float32 array of shape (M, N).

    A and B must be 2-D float32 arrays; any memory layout works (sliced, transposed and Fortran-ordered
    inputs are accepted; rows that are not contiguous are copied first). Everything is checked before the GPU
    is touched.
    """
    _check_kernel(kernel)
    A = _check_matrix("A", A)
    B = _check_matrix("B", B)
    (M, K), (K2, N) = A.shape, B.shape
    if K != K2:
        raise ValueError(
            f"inner dimensions differ: A is {M}x{K} and B is {K2}x{N}; A's columns must equal B's rows"
        )
    if M == 0 or N == 0 or K == 0:
        return np.zeros((M, N), dtype=np.float32)
    A, lda = _row_major_view(A)
    B, ldb = _row_major_view(B)
    C = np.empty((M, N), dtype=np.float32)
    check(
        library().mm_matmul_host(
            kernel.encode(), M, N, K, A.ctypes.data, lda, B.ctypes.data, ldb, C.ctypes.data, N
        )
    )
    return C


def benchmark(kernel: str, M: int, N: int, K: int, warmup: int = 3, repetitions: int = 10) -> BenchmarkResult:
    """Median kernel time at M x N x K on device-resident random inputs, timed with CUDA events."""
    _check_kernel(kernel)
    for name, value in (("M", M), ("N", N), ("K", K)):
        if not isinstance(value, (int, np.integer)) or not 1 <= value <= _INT_MAX:
            raise ValueError(f"{name} must be an integer in [1, {_INT_MAX}], got {value!r}")
    if warmup < 0 or repetitions < 1:
        raise ValueError(f"need warmup >= 0 and repetitions >= 1, got {warmup} and {repetitions}")
    ms = ctypes.c_double()
    check(library().mm_benchmark(kernel.encode(), M, N, K, warmup, repetitions, ctypes.byref(ms)))
    return BenchmarkResult(kernel, int(M), int(N), int(K), ms.value)


def kernel_available(kernel: str) -> bool:
    """True when `kernel` can run here; raises NoDeviceError when no GPU can be used at all."""
    _check_kernel(kernel)
    try:
        check(library().mm_kernel_available(kernel.encode()))
    except KernelUnavailableError:
        return False
    return True


def device_info() -> DeviceInfo:
    """The current CUDA device; raises NoDeviceError without a GPU or driver."""
    info = DeviceInfoStruct()
    check(library().mm_device_info_get(ctypes.byref(info)))
    return DeviceInfo(
        name=info.name.decode(errors="replace"),
        sm_count=info.sm_count,
        compute_capability=(info.compute_capability_major, info.compute_capability_minor),
        total_memory_bytes=info.total_memory_bytes,
        free_memory_bytes=info.free_memory_bytes,
        sm_clock_mhz=info.sm_clock_khz / 1e3,
        fp32_lanes_per_sm=info.fp32_lanes_per_sm,
        driver_version=info.driver_version,
        runtime_version=info.runtime_version,
    )

