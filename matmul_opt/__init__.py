"""matmul-opt: a ladder of CUDA SGEMM kernels, from the textbook loop to cuBLAS, callable from NumPy.

    import numpy as np, matmul_opt
    C = matmul_opt.run('optimized', A, B)   # A, B: 2-D float32 arrays

Importing never touches the GPU or needs the compiled library; the first call loads libmatmul.so.
"""
from ._library import (
    CudaError,
    DeviceMemoryError,
    KernelUnavailableError,
    LibraryNotFoundError,
    MatmulError,
    NoDeviceError,
)
from . import report
from .pinned import empty_pinned
from .memory import memory_held, release_memory
from .api import (
    BenchmarkResult,
    DeviceInfo,
    KernelInfo,
    benchmark,
    benchmark_read_bandwidth,
    device_info,
    kernel_available,
    kernel_names,
    kernels,
    matmul,
    run,
    tolerance,
)

__all__ = [
    "BenchmarkResult",
    "CudaError",
    "DeviceInfo",
    "DeviceMemoryError",
    "KernelInfo",
    "KernelUnavailableError",
    "LibraryNotFoundError",
    "MatmulError",
    "NoDeviceError",
    "benchmark",
    "benchmark_read_bandwidth",
    "device_info",
    "empty_pinned",
    "kernel_available",
    "kernel_names",
    "kernels",
    "matmul",
    "memory_held",
    "release_memory",
    "run",
    "tolerance",
]
