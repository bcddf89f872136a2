"""ctypes binding of libmatmul.so: loading, signatures, and status codes turned into exceptions."""
from __future__ import annotations

import ctypes
import functools
import os
import struct
import threading
from pathlib import Path

LIBRARY_ENV = "MATMUL_OPT_LIBRARY"
_DEFAULT_PATH = Path(__file__).with_name("libmatmul.so")


class MatmulError(RuntimeError):
    """A failure reported by libmatmul; `status` is the C status code, the message is the library's."""

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        self.status = status


class LibraryNotFoundError(MatmulError, OSError):
    """libmatmul.so is missing or cannot be loaded."""


class NoDeviceError(MatmulError):
    """No CUDA device or no usable driver."""


class KernelUnavailableError(MatmulError):
    """The kernel cannot run on this machine (for example cuBLAS is not installed)."""


class DeviceMemoryError(MatmulError, MemoryError):
    """A device allocation failed; the message names the bytes asked for and the bytes free."""


class CudaError(MatmulError):
    """Any other CUDA failure, carrying CUDA's own message."""


# Status codes of cuda/matmul.h.
_OK, _INVALID_ARGUMENT, _UNKNOWN_KERNEL, _OUT_OF_MEMORY, _NO_DEVICE, _UNAVAILABLE, _CUDA = range(7)


class DeviceInfoStruct(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 256),
        ("sm_count", ctypes.c_int),
        ("compute_capability_major", ctypes.c_int),
        ("compute_capability_minor", ctypes.c_int),
        ("total_memory_bytes", ctypes.c_uint64),
        ("free_memory_bytes", ctypes.c_uint64),
        ("sm_clock_khz", ctypes.c_int),
        ("fp32_lanes_per_sm", ctypes.c_int),
        ("driver_version", ctypes.c_int),
        ("runtime_version", ctypes.c_int),
    ]


class GemmProblemStruct(ctypes.Structure):
    """mm_gemm_problem: the arguments of mm_gemm_host and mm_gemm_async between the kernel name and the stream
    (gemm_arguments' order); pack_problem fills one."""

    _fields_ = [("op_a", ctypes.c_int), ("op_b", ctypes.c_int), ("M", ctypes.c_int64), ("N", ctypes.c_int64),
                ("K", ctypes.c_int64), ("alpha", ctypes.c_float), ("A", ctypes.c_void_p), ("lda", ctypes.c_int64),
                ("B", ctypes.c_void_p), ("ldb", ctypes.c_int64), ("beta", ctypes.c_float), ("C", ctypes.c_void_p),
                ("ldc", ctypes.c_int64)]


class TrackingStruct(ctypes.Structure):
    """mm_tracking: a tracked call's ticket and the highest ticket through which all tracked work has finished."""

    _fields_ = [("ticket", ctypes.c_uint64), ("finished_through", ctypes.c_uint64)]


class TrackedGemmStruct(ctypes.Structure):
    """mm_tracked_gemm: mm_gemm_async_tracked's one argument (the kernel's name, the problem, the stream) and what it
    reports; pack_tracked fills all but the report, read_tracking reads that."""

    _fields_ = [("kernel", ctypes.c_void_p), ("problem", GemmProblemStruct), ("stream", ctypes.c_void_p),
                ("tracking", TrackingStruct)]


class HeldMemoryStruct(ctypes.Structure):
    """mm_held_memory: the bytes the library keeps between calls (mm_memory_held fills it, matmul_opt.memory reads
    it)."""

    _fields_ = [("pinned_cached", ctypes.c_uint64), ("pinned_staging", ctypes.c_uint64),
                ("device_pooled", ctypes.c_uint64)]


# Write gemm_arguments' values (after the kernel's name) into a GemmProblemStruct, or the name's address, those
# values and the stream into a TrackedGemmStruct, in one call (ctypes would convert each argument of the entries on
# its own): the struct module's native layout is the C compiler's, which test_cpu_api checks field by field.
_PROBLEM_FORMAT = "iiqqqfPqPqfPq"
pack_problem = struct.Struct("@" + _PROBLEM_FORMAT).pack_into
pack_tracked = struct.Struct("@P" + _PROBLEM_FORMAT + "P").pack_into


def read_tracking(call: TrackedGemmStruct) -> tuple[int, int]:
    """(ticket, finished_through) of the last mm_gemm_async_tracked on `call`."""
    return _unpack_tracking(call, _TRACKING_OFFSET)


_unpack_tracking = struct.Struct("@QQ").unpack_from
_TRACKING_OFFSET = TrackedGemmStruct.tracking.offset

_per_thread = threading.local()


def thread_problem() -> GemmProblemStruct:
    """This thread's mm_gemm_problem, reused call after call."""
    try:
        return _per_thread.problem
    except AttributeError:
        _per_thread.problem = GemmProblemStruct()
        return _per_thread.problem


def thread_call() -> tuple[TrackedGemmStruct, ctypes.c_void_p]:
    """This thread's mm_tracked_gemm and its address (what mm_gemm_async_tracked takes, converted once), reused call
    after call: a caller reads the report before the thread's next call."""
    try:
        return _per_thread.call
    except AttributeError:
        call = TrackedGemmStruct()
        _per_thread.call = call, ctypes.c_void_p(ctypes.addressof(call))
        return _per_thread.call


_i64, _int, _status = ctypes.c_int64, ctypes.c_int, ctypes.c_int
_fptr = ctypes.c_void_p
_SIGNATURES = {
    "mm_last_error": (ctypes.c_char_p, []),
    "mm_kernel_count": (_int, []),
    "mm_kernel_name": (_status, [_int, ctypes.POINTER(ctypes.c_char_p)]),
    "mm_kernel_description": (_status, [_int, ctypes.POINTER(ctypes.c_char_p)]),
    "mm_kernel_arithmetic": (_status, [_int, ctypes.POINTER(_int)]),
    "mm_kernel_native_ops": (_status, [_int, ctypes.POINTER(ctypes.c_uint)]),
    "mm_kernel_available": (_status, [ctypes.c_char_p]),
    "mm_matmul_host": (_status, [ctypes.c_char_p, _i64, _i64, _i64, _fptr, _i64, _fptr, _i64, _fptr, _i64]),
    "mm_matmul_device": (_status, [ctypes.c_char_p, _i64, _i64, _i64, _fptr, _i64, _fptr, _i64, _fptr, _i64]),
    "mm_benchmark": (_status, [ctypes.c_char_p, _i64, _i64, _i64, _int, _int, ctypes.POINTER(ctypes.c_double)]),
    "mm_benchmark_read_bandwidth": (_status, [ctypes.c_uint64, _int, ctypes.POINTER(ctypes.c_double)]),
    "mm_device_info_get": (_status, [ctypes.POINTER(DeviceInfoStruct)]),
    "mm_gemm_host": (_status, [ctypes.c_char_p, _int, _int, _i64, _i64, _i64, ctypes.c_float, _fptr, _i64, _fptr, _i64,
                               ctypes.c_float, _fptr, _i64]),
    "mm_gemm_async": (_status, [ctypes.c_char_p, _int, _int, _i64, _i64, _i64, ctypes.c_float, _fptr, _i64, _fptr, _i64,
                                ctypes.c_float, _fptr, _i64, ctypes.c_void_p]),
    "mm_gemm_host_problem": (_status, [ctypes.c_char_p, ctypes.POINTER(GemmProblemStruct)]),
    "mm_gemm_async_tracked": (_status, [ctypes.c_void_p]),  # a TrackedGemmStruct's address (thread_call)
    "mm_gemm_check": (_status, [ctypes.c_char_p, _int, _int, _i64, _i64, _i64, ctypes.c_float, _fptr, _i64, _fptr, _i64,
                                ctypes.c_float, _fptr, _i64, ctypes.c_void_p]),
    "mm_pointer_device": (_status, [ctypes.c_void_p, ctypes.POINTER(_int)]),
    "mm_current_device": (_status, [ctypes.POINTER(_int)]),
    "mm_stream_wait": (_status, [_int, ctypes.c_void_p, ctypes.c_void_p]),
    "mm_marker_record": (_status, [_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]),
    "mm_marker_finished": (_status, [ctypes.c_void_p, ctypes.POINTER(_int)]),
    "mm_host_alloc": (_status, [ctypes.c_uint64, ctypes.POINTER(ctypes.c_void_p)]),
    "mm_host_free": (_status, [ctypes.c_void_p]),
    "mm_host_register": (_status, [ctypes.c_void_p, ctypes.c_uint64]),
    "mm_host_unregister": (_status, [ctypes.c_void_p]),
    "mm_memory_held": (_status, [ctypes.POINTER(HeldMemoryStruct)]),
    "mm_release_memory": (_status, []),
    "mm_best_config_count": (_int, []),
    "mm_best_config_name": (_status, [_int, ctypes.POINTER(ctypes.c_char_p)]),
    "mm_best_force": (_status, [_int, _int]),
    "mm_best_edges_beside": (_status, [_int]),
    "mm_split_k_sums_in_launch": (_status, [_int]),
    "mm_wgmma_tf32_force": (_status, [_int, _int, _int]),
    "mm_fp32_accurate_force_ffma": (_status, [_int]),
}

_lock = threading.Lock()
_library: ctypes.CDLL | None = None


def library_path() -> Path:
    return Path(os.environ.get(LIBRARY_ENV) or _DEFAULT_PATH)


def library() -> ctypes.CDLL:
    """The loaded library (loaded on first use, so importing matmul_opt never needs it)."""
    global _library
    if _library is not None:  # loaded: no lock on the per-call path
        return _library
    with _lock:
        if _library is None:
            path = library_path()
            if not path.exists():
                raise LibraryNotFoundError(
                    f"libmatmul.so not found at {path}. Build it with `invoke build` (or `make`) in the "
                    f"repository root, or set {LIBRARY_ENV} to its path."
                )
            try:
                lib = ctypes.CDLL(str(path))
            except OSError as exc:
                raise LibraryNotFoundError(f"cannot load {path}: {exc}. Rebuild it with `invoke build`.") from exc
            for name, (restype, argtypes) in _SIGNATURES.items():
                function = getattr(lib, name)
                function.restype, function.argtypes = restype, argtypes
            _library = lib
        return _library


def loaded_library() -> ctypes.CDLL | None:
    """The library if a call has loaded it, else None (without loading it)."""
    return _library


@functools.lru_cache(maxsize=None)
def kernel_name_addresses() -> dict[str, int]:
    """Each registered kernel's name, in registry order, and the address of the library's own copy of it (a static
    string, there as long as the library is loaded): what a TrackedGemmStruct's kernel field points at."""
    lib = library()
    addresses = {}
    for index in range(lib.mm_kernel_count()):
        name = ctypes.c_char_p()
        check(lib.mm_kernel_name(index, ctypes.byref(name)))
        addresses[name.value.decode()] = ctypes.cast(name, ctypes.c_void_p).value
    return addresses


def check(status: int) -> None:
    """Raise the exception for a non-zero status, with this thread's last-error message."""
    if status == _OK:
        return
    message = (library().mm_last_error() or b"").decode(errors="replace") or f"libmatmul status {status}"
    exception = {
        _INVALID_ARGUMENT: ValueError,
        _UNKNOWN_KERNEL: ValueError,
        _OUT_OF_MEMORY: DeviceMemoryError,
        _NO_DEVICE: NoDeviceError,
        _UNAVAILABLE: KernelUnavailableError,
    }.get(status, CudaError)
    if issubclass(exception, MatmulError):
        raise exception(message, status)
    raise exception(message)
