"""Work in flight: each product enqueued through mm_gemm_async_tracked, and the operands and results it reads, held
until a later call's report says its ticket finished."""
from __future__ import annotations

import collections
import threading

from ._library import check, library, pack_tracked, read_tracking, thread_call
from .dlpack import DLPackRelease


class InFlight:
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
                if isinstance(ref, DLPackRelease):
                    ref()


IN_FLIGHT = InFlight()


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
