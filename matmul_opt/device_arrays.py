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
Nothing here imports CuPy or PyTorch: a library is used only through the arrays it produced. The parts this path
composes are modules of their own: device_matrix (reading an array), array_adapters (one adapter per library),
dlpack, streams and in_flight.
"""
from __future__ import annotations

import ctypes

from ._layout import INT_MAX, check_product, gemm_arguments, layout
from ._library import check, kernel_name_addresses, library
from .array_adapters import (ADAPTERS, ALLOCATING_LIBRARIES, UNSEEN, adapter_of, allocate_like, cannot_allocate,
                             contiguous_copy, library_of)
from .device_matrix import DeviceMatrix, from_array_interface
from .dlpack import dlpack_device, from_dlpack, release_exports
from .in_flight import IN_FLIGHT, enqueue_tracked
from .streams import LEGACY_STREAM, PER_THREAD_STREAM, stream_handle


def producer_stream(matrix: DeviceMatrix, asked: dict) -> int | None:
    """The stream on which the producer of `matrix` may still be writing it, when it says (`asked` keeps what
    PyTorch said per device, for the other operands of one call)."""
    if matrix.stream is not None:
        return stream_handle(matrix.stream)
    if library_of(matrix.owner) == "torch":
        if matrix.device not in asked:
            asked[matrix.device] = adapter_of(type(matrix.owner)).stream(matrix.device)
        return asked[matrix.device]
    return None


def current_device() -> int:
    """The calling thread's current GPU (for arrays too empty to say where they are)."""
    device = ctypes.c_int(0)
    check(library().mm_current_device(ctypes.byref(device)))
    return device.value


def device_of(matrix: DeviceMatrix) -> int | None:
    if matrix.device is not None:
        return matrix.device
    if matrix.ptr == 0:  # an empty array of an interface that names no GPU: no memory to ask about
        return None
    device = ctypes.c_int()
    check(library().mm_pointer_device(ctypes.c_void_p(matrix.ptr), ctypes.byref(device)))
    return device.value


def plain_gemm(kernel_address: int, A, B, alpha: float, stream):
    """run() without out= and with beta = 0 for the common call, read without the general machinery: A and B both
    PyTorch CUDA tensors or both CuPy arrays, plain (float32, rows or columns contiguous, non-empty, on one GPU) and
    the work on their library's current stream (stream= absent or that stream), so that no stream waits. Enqueues
    the product (the kernel named at `kernel_address`, kernel_name_addresses') and returns the result as gemm()
    would; returns None, having done nothing, for any other call, which then goes the general way (gemm), refusals
    included. Written for few Python calls: it is most of what a small product costs."""
    adapter = ADAPTERS.get(type(A), UNSEEN)  # adapter_of's cache, read inline: one Python call fewer per product
    if adapter is UNSEEN:
        adapter = adapter_of(type(A))
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
    if out is None and "A" not in parsed and library_of(A) not in ALLOCATING_LIBRARIES:
        raise cannot_allocate(library_of(A))
    try:
        for n, x in operands.items():  # DLPack operands: their producers order their writes before the chosen stream
            if n not in parsed:
                parsed[n] = from_dlpack(x, n, chosen)
        result, tracking, refs = _enqueue(kernel, A, out, parsed, producers, chosen, alpha, beta)
    except BaseException:  # refused, or failed before the product was enqueued: the exports go back now
        release_exports(parsed)
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
    devices = {n: device_of(m) for n, m in parsed.items()}
    known = {d for d in devices.values() if d is not None}
    if len(known) > 1:
        raise ValueError("the operands lie on different GPUs (" + ", ".join(f"{n} on {d}" for n, d in devices.items())
                         + "); move them to one GPU")
    device = known.pop() if known else current_device()
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
        release_exports(parsed)
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
