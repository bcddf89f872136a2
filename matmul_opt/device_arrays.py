"""GPU arrays in, GPU arrays out: operands that export __cuda_array_interface__ (versions 2 and 3) or DLPack.

run() hands such operands here. Everything is checked before the product is enqueued: here, then by the C entry
itself, or by mm_gemm_check first when other producers' streams must be made to wait; a refused call has enqueued
nothing but the contiguous copies of operands with other strides (and, for DLPack operands, what their producers
order before the chosen stream as they export).
The product is enqueued with mm_gemm_async_tracked on one stream and returned without waiting: the stream given as
`stream=`, else the producer's (CAI v3's `stream`, PyTorch's and CuPy's current stream of the operands' GPU), else
the calling thread's default stream (the legacy one when an operand comes through DLPack alone); every other
producer stream is made to wait first, on the GPU. The result is an array of the first operand's own library
(CuPy, PyTorch, Numba), allocated through it, unless `out=` is given. Transposed views run as op = T with no copy;
other strides are made contiguous by the producer's library, on the GPU. The operands (and the result) are kept
referenced until a later call's report says the work finished (the library tracks a marker after each product), so
deleting them right after the call is safe; consumed DLPack exports go back to their producers then, or at once
when the call is refused. The common call on PyTorch or CuPy arrays takes a short path (plain_gemm) with the same
outcome.
Nothing here imports CuPy or PyTorch: a library is used only through the arrays it produced.
"""
from __future__ import annotations

import collections
import ctypes
import functools
import sys
import threading
from dataclasses import dataclass, field

import numpy as np

from ._layout import INT_MAX, Operand, check_product, check_shape, element_strides, gemm_arguments, layout
from ._library import check, kernel_name_addresses, library, pack_tracked, read_tracking, thread_call

# DLPack device types (dlpack.h): CUDA memory, and memory managed across host and CUDA devices.
_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13
_DLPACK_DEVICE_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA host (pinned)", 4: "OpenCL", 7: "Vulkan", 8: "Metal",
                        10: "ROCm", 13: "CUDA managed", 14: "oneAPI"}
_FLOAT32 = np.dtype(np.float32)
# Stream handles of the CUDA runtime: the legacy default stream and the calling thread's default stream.
LEGACY_STREAM, PER_THREAD_STREAM = 1, 2


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


def is_device_array(x) -> bool:
    """True for objects that export __cuda_array_interface__ or DLPack (NumPy arrays are host arrays)."""
    if isinstance(x, np.ndarray):
        return False
    if _is_cuda_tensor(x):  # PyTorch builds its interface dict in Python on every access: ask it directly
        return True
    return hasattr(x, "__cuda_array_interface__") or (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"))


def requires_grad(A, B) -> bool:
    """True when A or B is a PyTorch tensor that requires grad (read without importing PyTorch)."""
    return any(_library_of(x) == "torch" and getattr(x, "requires_grad", False) is True for x in (A, B))


def _is_cuda_tensor(x) -> bool:
    return _library_of(x) == "torch" and getattr(x, "is_cuda", False) is True


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


def _library_of(x) -> str:
    return _library_of_type(type(x))


@functools.lru_cache(maxsize=None)
def _library_of_type(kind: type) -> str:
    return kind.__module__.split(".")[0]


def _dtype_error(name: str, found: str, x) -> TypeError:
    hint = {"torch": f"{name}.float()", "cupy": f"{name}.astype(cupy.float32)"}.get(_library_of(x), "a float32 copy")
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
        raise _dtype_error(name, np.dtype(typestr).name, x)
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
        raise _dtype_error(name, str(x.dtype).removeprefix("torch."), x)
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
        raise _dtype_error(name, x.dtype.name, x)
    strides = element_strides(name, x.strides)
    device = x.device.id
    return DeviceMatrix(x, x.data.ptr, (rows, cols), strides, stream=_adapter_of(type(x)).stream(device),
                        device=device)


def from_array_interface(x, name: str) -> DeviceMatrix | None:
    """The matrix of an operand that needs no DLPack export: PyTorch and CuPy arrays, read directly, and other
    __cuda_array_interface__ exporters; None for an operand that only DLPack describes."""
    library_name = _library_of(x)
    if library_name == "torch" and _is_cuda_tensor(x):
        return from_torch(x, name)
    if library_name == "cupy" and type(x).__name__ == "ndarray":
        return from_cupy(x, name)
    if hasattr(x, "__cuda_array_interface__"):
        return from_cuda_array_interface(x, name)
    return None


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
    release = _DLPackRelease(managed)
    try:
        tensor = managed.contents.dl_tensor
        if tensor.ndim != 2:
            raise ValueError(f"{name} must be 2-D (a matrix), got {tensor.ndim}-D")
        dtype = tensor.dtype
        if (dtype.code, dtype.bits, dtype.lanes) != (2, 32, 1):  # kDLFloat, 32 bits, 1 lane
            raise _dtype_error(name, f"DLPack code {dtype.code}, {dtype.bits} bits x {dtype.lanes}", x)
        rows, cols = check_shape(name, (tensor.shape[0], tensor.shape[1]))
        strides = (tensor.strides[0], tensor.strides[1]) if tensor.strides else (cols, 1)
        ptr = (tensor.data or 0) + tensor.byte_offset
    except BaseException:
        release()
        raise
    return DeviceMatrix(x, ptr, (rows, cols), strides, device=device_id, keepalive=[release])


class _DLPackRelease:
    """Calls a consumed DLPack tensor's deleter once, when the work that read it has finished."""

    def __init__(self, managed):
        self.managed = managed

    def __call__(self):
        if self.managed is not None and self.managed.contents.deleter:
            self.managed.contents.deleter(self.managed)
        self.managed = None


def stream_handle(stream) -> int:
    """An integer stream handle from stream= (an int, or an object with .ptr or .cuda_stream); 0, which CuPy and
    PyTorch use for the legacy default stream, becomes that stream's runtime handle."""
    for attribute in ("ptr", "cuda_stream"):
        if hasattr(stream, attribute):
            stream = getattr(stream, attribute)
            break
    if isinstance(stream, bool) or not isinstance(stream, (int, np.integer)) or stream < 0:
        raise TypeError(f"stream must be a stream handle (int) or an object with .ptr or .cuda_stream, got "
                        f"{type(stream).__name__}")
    return LEGACY_STREAM if stream == 0 else int(stream)


def producer_stream(matrix: DeviceMatrix, asked: dict) -> int | None:
    """The stream on which the producer of `matrix` may still be writing it, when it says (`asked` keeps what
    PyTorch said per device, for the other operands of one call)."""
    if matrix.stream is not None:
        return stream_handle(matrix.stream)
    if _library_of(matrix.owner) == "torch":
        if matrix.device not in asked:
            asked[matrix.device] = _adapter_of(type(matrix.owner)).stream(matrix.device)
        return asked[matrix.device]
    return None


@functools.lru_cache(maxsize=None)
def _torch_current_stream(torch):
    """The handle of PyTorch's current stream of a device: torch._C's raw query where this PyTorch has it (what the
    public torch.cuda.current_stream(device).cuda_stream reads, without building a Stream object), else that."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw if raw is not None else (lambda device: torch.cuda.current_stream(device).cuda_stream)


def contiguous_copy(x, name: str):
    """x with rows contiguous, made on the GPU by x's own library."""
    library_name = _library_of(x)
    if library_name == "torch":
        return x.contiguous()
    if library_name == "cupy":
        import cupy

        return cupy.ascontiguousarray(x)
    raise ValueError(f"{name} has strides that are neither row- nor column-contiguous; pass a contiguous array "
                     "(its library's ascontiguousarray or .contiguous())")


def _release_exports(parsed: dict[str, DeviceMatrix]) -> None:
    """Gives the consumed DLPack tensors back to their producers (their deleters run once)."""
    for matrix in parsed.values():
        for release in matrix.keepalive:
            release()


_ALLOCATING_LIBRARIES = ("torch", "cupy", "numba")


def allocate_like(x, shape: tuple[int, int], device: int):
    """A new float32 array of `shape` on GPU `device`, from x's own library."""
    adapter = _adapter_of(type(x))
    if adapter is not None:
        return adapter.allocate(x, *shape, device)[0]
    library_name = _library_of(x)
    if library_name == "numba":
        from numba import cuda

        with cuda.gpus[device]:
            return cuda.device_array(shape, dtype=np.float32)
    raise _cannot_allocate(library_name)


def _cannot_allocate(library_name: str) -> ValueError:
    return ValueError(f"matmul_opt cannot allocate a result through {library_name} (it allocates through CuPy, "
                      "PyTorch and Numba); pass out=, a writable float32 GPU array of the result's shape")


class _InFlight:
    """Operands and results of enqueued work, each batch held until the library reports its ticket finished
    (mm_gemm_async_tracked: every call reports how far the tracked work has finished, oldest first)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._batches: collections.deque[tuple[int, list]] = collections.deque()

    def hold(self, tracking: tuple[int, int], refs: list) -> None:
        """Holds `refs` under the call's ticket (none when it enqueued nothing) and drops the oldest batches whose
        work has finished, by the call's report `tracking` (ticket, finished_through: enqueue_tracked's). Batches of
        concurrent calls may join out of ticket order; one that joined early then waits for the later tickets, never
        the other way round."""
        ticket, finished_through = tracking
        batches = self._batches
        if ticket:
            batches.append((ticket, refs))  # atomic: the lock guards the releases only
        try:
            if batches[0][0] > finished_through:  # the usual answer: nothing finished since the last call
                return
        except IndexError:
            return
        finished = []
        with self._lock:
            while batches and batches[0][0] <= finished_through:
                finished.append(batches.popleft()[1])
        for refs in finished:  # outside the lock: a DLPack deleter may run arbitrary code
            for ref in refs:
                if isinstance(ref, _DLPackRelease):
                    ref()


IN_FLIGHT = _InFlight()


def _current_device() -> int:
    """The calling thread's current GPU (for arrays too empty to say where they are)."""
    device = ctypes.c_int(0)
    check(library().mm_current_device(ctypes.byref(device)))
    return device.value


def _device_of(matrix: DeviceMatrix) -> int | None:
    if matrix.device is not None:
        return matrix.device
    if matrix.ptr == 0:  # an empty array of an interface that names no GPU: no memory to ask about
        return None
    device = ctypes.c_int()
    check(library().mm_pointer_device(ctypes.c_void_p(matrix.ptr), ctypes.byref(device)))
    return device.value


class _TorchArrays:
    """What matmul_opt asks of PyTorch, through its tensors: the plain operands plain_gemm takes (float32 CUDA tensors
    without autograd, on one GPU), its current stream and the allocation of a result."""

    def __init__(self, torch):
        self.float32, self.current_stream = torch.float32, _torch_current_stream(torch)

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


class _CupyArrays:
    """What matmul_opt asks of CuPy, through its arrays: the plain operands plain_gemm takes (float32 arrays of the
    current GPU, strides of whole elements), its current stream and the allocation of a result. It reads the GPU
    from an array's memory pointer (ndarray.device builds a Device object) and allocates through the ndarray
    constructor, which cupy.empty calls."""

    def __init__(self, cupy):
        self.cupy = cupy
        self.current_device, self.current_stream = cupy.cuda.runtime.getDevice, _cupy_current_stream(cupy)

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


def _cupy_current_stream(cupy):
    """CuPy's current stream of a GPU: get_current_stream(device_id) where this CuPy keeps one per GPU, else its one
    current stream."""
    get = cupy.cuda.get_current_stream
    try:
        get(-1)  # -1: the current GPU's
    except TypeError:  # no device_id parameter
        return lambda device: get()
    return get


_ARRAY_LIBRARIES = {"torch": (_TorchArrays, "Tensor"), "cupy": (_CupyArrays, "ndarray")}
_adapters: dict[type, object] = {}  # by operand type; None for types of no library above
_UNSEEN = object()


def _adapter_of(kind: type):
    """The adapter of PyTorch's tensors and CuPy's arrays (subclasses included), made on first sight of the type;
    None for any other type."""
    adapter = _adapters.get(kind, _UNSEEN)
    if adapter is _UNSEEN:
        library_name = _library_of_type(kind)
        known, module = _ARRAY_LIBRARIES.get(library_name), sys.modules.get(library_name)
        ours = known is not None and module is not None and any(c.__name__ == known[1] for c in kind.__mro__)
        adapter = _adapters[kind] = known[0](module) if ours else None
    return adapter


def plain_gemm(kernel_address: int, A, B, alpha: float, stream):
    """run() without out= and with beta = 0 for the common call, read without the general machinery: A and B both
    PyTorch CUDA tensors or both CuPy arrays, plain (float32, rows or columns contiguous, non-empty, on one GPU) and
    the work on their library's current stream (stream= absent or that stream), so that no stream waits. Enqueues
    the product (the kernel named at `kernel_address`, kernel_name_addresses') and returns the result as gemm()
    would; returns None, having done nothing, for any other call, which then goes the general way (gemm), refusals
    included. Written for few Python calls: it is most of what a small product costs."""
    adapter = _adapters.get(type(A), _UNSEEN)  # _adapter_of's cache, read inline: one Python call fewer per product
    if adapter is _UNSEEN:
        adapter = _adapter_of(type(A))
    if adapter is None or type(B) is not type(A):
        return None
    read = adapter.operands(A, B)
    if read is None:
        return None
    pa, shape_a, (a0, a1), pb, shape_b, (b0, b1), device = read
    if len(shape_a) != 2 or len(shape_b) != 2:
        return None
    (M, K), (K_b, N) = shape_a, shape_b
    if K_b != K or not (0 < M <= INT_MAX and 0 < K <= INT_MAX and 0 < N <= INT_MAX):
        return None
    if a1 == 1 and b1 == 1 and a0 >= K and b0 >= N:
        op_a, lda, op_b, ldb = 0, a0, 0, b0  # rows contiguous: the common case, without layout()'s cases
    else:
        found_a, found_b = layout((M, K), (a0, a1)), layout((K, N), (b0, b1))
        if found_a is None or found_b is None:
            return None
        (op_a, lda), (op_b, ldb) = found_a, found_b
    chosen = adapter.stream(device)
    if stream is not None and stream_handle(stream) != chosen:
        return None
    result, pc = adapter.allocate(A, M, N, device)
    IN_FLIGHT.hold(enqueue_tracked(kernel_address, chosen, op_a, op_b, M, N, K, alpha, pa, lda, pb, ldb, 0.0, pc, N),
                   [A, B, result])
    return result


def enqueue_tracked(kernel_address: int, stream: int, op_a: int, op_b: int, M: int, N: int, K: int, alpha: float,
                    pa: int, lda: int, pb: int, ldb: int, beta: float, pc: int, ldc: int) -> tuple[int, int]:
    """mm_gemm_async_tracked of the kernel named at `kernel_address` (kernel_name_addresses') on `stream`, with
    gemm_arguments' values after it, through this thread's call struct; returns its report (ticket,
    finished_through). Its parameters are spelt out: a small product pays for packing them into a tuple."""
    call, address = thread_call()
    pack_tracked(call, 0, kernel_address, op_a, op_b, M, N, K, alpha, pa, lda, pb, ldb, beta, pc, ldc, stream)
    status = library().mm_gemm_async_tracked(address)
    if status:
        check(status)
    return read_tracking(call)


def gemm(kernel: str, A, B, out, alpha: float, beta: float, stream):
    """run() for GPU arrays: enqueues out = alpha·A·B + beta·out and returns without waiting (see the module)."""
    explicit = None if stream is None else stream_handle(stream)
    operands = {"A": A, "B": B, **({"out": out} if out is not None else {})}
    # Operands that need no export first: their producers' streams choose the stream of the work when stream= does not.
    parsed = {n: m for n, m in ((n, from_array_interface(x, n)) for n, x in operands.items()) if m is not None}
    asked: dict = {}  # PyTorch's current stream by device, asked once per call
    producers = {n: producer_stream(m, asked) for n, m in parsed.items()}
    # With no stream known: the calling thread's default stream, or the legacy one where an operand must be exported
    # through DLPack (every producer takes that one; PyTorch refuses to export for the per-thread one).
    fallback = PER_THREAD_STREAM if len(parsed) == len(operands) else LEGACY_STREAM
    chosen = explicit or next((s for s in producers.values() if s is not None), None) or fallback
    for n, x in operands.items():  # refusals that need no export come before any (an export must be given back)
        if n not in parsed:
            dlpack_device(x, n)
    if out is None and "A" not in parsed and _library_of(A) not in _ALLOCATING_LIBRARIES:
        raise _cannot_allocate(_library_of(A))
    try:
        for n, x in operands.items():  # DLPack operands: their producers order their writes before the chosen stream
            if n not in parsed:
                parsed[n] = from_dlpack(x, n, chosen)
        result, tracking, refs = _enqueue(kernel, A, out, parsed, producers, chosen, alpha, beta)
    except BaseException:  # refused, or failed before the product was enqueued: the exports go back now
        _release_exports(parsed)
        raise
    if tracking is not None:
        IN_FLIGHT.hold(tracking, refs)
    return result


def _enqueue(kernel: str, A, out, parsed: dict[str, DeviceMatrix], producers: dict[str, int | None], chosen: int,
             alpha: float, beta: float) -> tuple[object, tuple[int, int] | None, list]:
    """gemm() once every operand is parsed: the remaining checks, then the product, enqueued on `chosen`.
    Returns the result, the call's tracking report (ticket, finished_through; None: nothing was enqueued) and what
    must stay referenced until the work finishes."""
    c = parsed.get("out")
    M, N, K = check_product(parsed["A"].shape, parsed["B"].shape, None if c is None else c.shape,
                            c is not None and c.readonly, "GPU array")
    if c is not None and c.operand is None:
        raise ValueError("out must have its rows or its columns contiguous")
    devices = {n: _device_of(m) for n, m in parsed.items()}
    known = {d for d in devices.values() if d is not None}
    if len(known) > 1:
        raise ValueError("the operands lie on different GPUs (" + ", ".join(f"{n} on {d}" for n, d in devices.items())
                         + "); move them to one GPU")
    device = known.pop() if known else _current_device()
    refs: list = []
    for n in ("A", "B"):
        if parsed[n].operand is None:  # neither rows nor columns contiguous: a contiguous copy, on the GPU
            copied = from_array_interface(contiguous_copy(parsed[n].owner, n), n)
            copied.keepalive += parsed[n].keepalive  # an export of the original still goes back with the work
            refs.append(parsed[n].owner)
            parsed[n] = copied
    a, b = parsed["A"], parsed["B"]
    if c is None:
        result = allocate_like(A, (M, N), device)
        c = from_array_interface(result, "the result")
    else:
        result = out
    if M == 0 or N == 0:  # nothing to compute; the consumed DLPack tensors go back at once
        _release_exports(parsed)
        return result, None, []
    arguments = gemm_arguments(M, N, K, alpha, beta, a.operand, b.operand, c.operand)
    lib = library()
    waits = set(producers.values()) - {None, chosen}
    if waits:  # what the C entry refuses is refused before the waits are enqueued (it checks again, cheaply)
        check(lib.mm_gemm_check(kernel.encode(), *arguments, chosen))
    for s in waits:
        check(lib.mm_stream_wait(device, chosen, s))
    tracking = enqueue_tracked(kernel_name_addresses()[kernel], chosen, *arguments)
    refs += [m.owner for m in (a, b, c)] + [k for m in parsed.values() for k in m.keepalive]
    return result, tracking, refs
