"""The public functions: run (its checks and dispatch to the host path or the GPU-array path), matmul, kernels,
benchmark, benchmark_read_bandwidth, device_info (tolerance comes from accuracy.py)."""
from __future__ import annotations

import ctypes
import functools
from dataclasses import dataclass

import numpy as np

from . import device_arrays, host_path
from .device_matrix import is_device_array, requires_grad
from ._layout import INT_MAX
from ._library import DeviceInfoStruct, KernelUnavailableError, check, kernel_name_addresses, library
from .accuracy import ARITHMETICS, tolerance  # noqa: F401  (tolerance is part of the API: matmul_opt.tolerance)


@dataclass(frozen=True)
class KernelInfo:
    name: str
    description: str
    # "fp32" (IEEE fp32 FMAs), "tf32" (inputs rounded to tf32 on tensor cores) or "fp32_tensor" (fp32 accuracy on
    # tensor cores, operands split into tf32 parts)
    arithmetic: str
    # The op combinations, op_a then op_b ("NN", "NT", "TN", "TT"), the kernel takes itself (mm_kernel_native_ops);
    # for any other an op = T operand (a transposed view) is rearranged on the GPU first.
    native_ops: tuple[str, ...]


_OP_COMBINATIONS = ("NN", "NT", "TN", "TT")  # bit 2 * op_a + op_b of mm_kernel_native_ops


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
    """Read once: the registry is fixed in the loaded library (kernel_name_addresses holds its names, in its order)."""
    lib = library()
    infos = []
    for index, name in enumerate(kernel_name_addresses()):
        description, arithmetic, native = ctypes.c_char_p(), ctypes.c_int(), ctypes.c_uint()
        check(lib.mm_kernel_description(index, ctypes.byref(description)))
        check(lib.mm_kernel_arithmetic(index, ctypes.byref(arithmetic)))
        check(lib.mm_kernel_native_ops(index, ctypes.byref(native)))
        ops = tuple(ops for bit, ops in enumerate(_OP_COMBINATIONS) if native.value >> bit & 1)
        infos.append(KernelInfo(name, description.value.decode(), ARITHMETICS[arithmetic.value], ops))
    return tuple(infos)


def kernel_names() -> list[str]:
    return [info.name for info in kernels()]


def _check_kernel(kernel) -> None:
    if not isinstance(kernel, str):
        raise TypeError(f"kernel must be a kernel name (str), got {type(kernel).__name__}")
    if kernel not in kernel_name_addresses():
        raise ValueError(f"unknown kernel {kernel!r}; valid kernels: {', '.join(kernel_names())}")


def _check_scalar(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    return float(value)


def run(kernel: str, A, B, out=None, *, alpha: float = 1.0, beta: float = 0.0, stream=None):
    """out = alpha * A @ B + beta * out with the named kernel; without out=, a new array (beta must be 0).

    NumPy operands (the host path): streamed to the GPU and back in panels, finished when run() returns; any
    memory layout works (Fortran order and .T views go as op = T, without a copy; other strides are copied first);
    pinned arrays (empty_pinned) are copied at DMA speed; the result is a NumPy array in memory the library
    recycles (page-locked from 1 MiB, pageable from 16 MiB: matmul_opt.results says why); an `out` that shares memory
    with A or B is computed through a copy. GPU operands (anything with __cuda_array_interface__ or DLPack): the work is enqueued on
    `stream` (a handle, or an object with .ptr or .cuda_stream), else on the producer's stream, ordered after the
    producer's pending writes, and run() returns without waiting; the result is an array of A's library (CuPy,
    PyTorch, Numba; other producers need `out`), or `out`, which may not overlap A or B and must have its rows or
    its columns contiguous (matmul_opt.device_arrays says more). PyTorch tensors that require grad: the plain
    product (no out=, alpha, beta or stream=) goes through the operator matmul() uses, which records the backward;
    the others are refused. Mixing host and GPU operands is refused. Everything is checked before the GPU is touched.
    """
    # The common calls, read directly (host_path.plain, device_arrays.plain_gemm: None for any other call, which the
    # checks below see).
    if type(kernel) is str and out is None and type(alpha) is float and type(beta) is float and beta == 0.0:
        kernel_address = kernel_name_addresses().get(kernel)
        if kernel_address is not None:
            if type(A) is not np.ndarray:
                result = device_arrays.plain_gemm(kernel_address, A, B, alpha, stream)
            else:
                result = host_path.plain(kernel, A, B, alpha) if stream is None and type(B) is np.ndarray else None
            if result is not None:
                return result
    if out is None and stream is None and alpha == 1 and beta == 0 and requires_grad(A, B):
        _check_kernel(kernel)
        from . import torch_op  # PyTorch is imported only once a tensor has come

        return torch_op.product(A, B, kernel)  # the operator records the backward
    _check_kernel(kernel)
    alpha, beta = _check_scalar("alpha", alpha), _check_scalar("beta", beta)
    if beta != 0 and out is None:
        raise ValueError(f"beta = {beta} scales the C that out= holds; pass out=, or beta = 0")
    if not (type(A) is np.ndarray and type(B) is np.ndarray and (out is None or type(out) is np.ndarray)):
        operands = {"A": A, "B": B, **({"out": out} if out is not None else {})}
        on_gpu = {name: is_device_array(x) for name, x in operands.items()}
        if any(on_gpu.values()):
            if not all(on_gpu.values()):
                where = ", ".join(f"{n} {'on the GPU' if g else 'on the host'}" for n, g in on_gpu.items())
                raise ValueError(f"mixed host and GPU operands ({where}); pass all of them as NumPy arrays or all as "
                                 "GPU arrays")
            return device_arrays.gemm(kernel, A, B, out, alpha, beta, stream)
    return host_path.run(kernel, A, B, out, alpha, beta, stream)


# Accuracies by the names PyTorch (torch.set_float32_matmul_precision) and JAX (jax.lax.Precision, the `precision`
# argument) give them, and the registered dispatcher that gives each one fastest per shape. "highest" is fp32
# accuracy (PyTorch: fp32 arithmetic; JAX HIGHEST: fp32, or passes of a narrower type that keep it), by any
# arithmetic: best_fp32_accurate. "high" allows TF32 (PyTorch: TF32 or three bfloat16 passes; JAX HIGH: TF32 on
# NVIDIA GPUs), and so do "medium" (PyTorch: bfloat16) and "default" (JAX DEFAULT), since TF32 is the least precise
# arithmetic here: best_tf32. IEEE fp32 multiply-adds in every product, as NumPy and cuBLAS compute: kernel="best".
PRECISIONS = {"highest": "best_fp32_accurate", "high": "best_tf32", "medium": "best_tf32", "default": "best_tf32"}


def precision_kernel(precision) -> str:
    """The dispatcher of a precision name (any case) or a jax.lax.Precision member (by its name)."""
    name = getattr(precision, "name", precision)
    kernel = PRECISIONS.get(name.lower()) if isinstance(name, str) else None
    if kernel is None:
        raise ValueError(f"unknown precision {precision!r}: expected one of {', '.join(map(repr, PRECISIONS))} "
                         "(PyTorch's and JAX's names), or pass kernel= to name a kernel")
    return kernel


def matmul(A, B, out=None, *, precision=None, kernel: str | None = None):
    """A @ B at the accuracy asked for, with the fastest kernel per shape that keeps it: precision "highest" (the
    default: fp32 accuracy), "high", "medium" or "default" (TF32 allowed), as PyTorch and JAX name them (PRECISIONS
    says which kernel each picks and why); or with the kernel named by kernel= instead. out= receives the result,
    as run() writes it. NumPy and GPU arrays alike.

    PyTorch tensors go through the PyTorch operator `matmul_opt::mm` (matmul_opt.torch_op): on tensors that require
    grad it records a backward that computes both gradients with the same kernel, and torch.compile traces a model
    that calls matmul() without a graph break (without out=, which PyTorch does not differentiate either). Every
    other operand goes to run(); PyTorch is never imported for them.
    """
    if kernel is not None and precision is not None:
        raise ValueError(f"pass precision= ({precision!r}) or kernel= ({kernel!r}), not both")
    if kernel is None:
        kernel = precision_kernel("highest" if precision is None else precision)
    if out is None and not isinstance(A, np.ndarray) and type(A).__module__.split(".")[0] == "torch":
        from . import torch_op  # PyTorch is imported only once a tensor has come

        return torch_op.product(A, B, kernel)
    return run(kernel, A, B, out)


def benchmark(kernel: str, M: int, N: int, K: int, warmup: int = 3, repetitions: int = 10) -> BenchmarkResult:
    """Median kernel time at M x N x K on device-resident random inputs, timed with CUDA events."""
    _check_kernel(kernel)
    for name, value in (("M", M), ("N", N), ("K", K)):
        if not isinstance(value, (int, np.integer)) or not 1 <= value <= INT_MAX:
            raise ValueError(f"{name} must be an integer in [1, {INT_MAX}], got {value!r}")
    if warmup < 0 or repetitions < 1:
        raise ValueError(f"need warmup >= 0 and repetitions >= 1, got {warmup} and {repetitions}")
    ms = ctypes.c_double()
    check(library().mm_benchmark(kernel.encode(), M, N, K, warmup, repetitions, ctypes.byref(ms)))
    return BenchmarkResult(kernel, int(M), int(N), int(K), ms.value)


def benchmark_read_bandwidth(bytes: int = 2**31, repetitions: int = 5) -> float:
    """The device memory's read bandwidth in GB/s: a sum over `bytes` of device memory, median of CUDA-event timings."""
    if not isinstance(bytes, (int, np.integer)) or bytes < 16 or not isinstance(repetitions, int) or repetitions < 1:
        raise ValueError(f"need bytes >= 16 and repetitions >= 1, got {bytes!r} and {repetitions!r}")
    gb_per_s = ctypes.c_double()
    check(library().mm_benchmark_read_bandwidth(int(bytes), repetitions, ctypes.byref(gb_per_s)))
    return gb_per_s.value


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

