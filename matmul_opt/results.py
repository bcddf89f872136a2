"""Memory for the host path's NumPy results (run() without out=).

A result needs memory that is ready to be written when its panels come down. Where it comes from decides what a
script pays per call, since new memory is slow on two counts: pinning it (page-locking, 25 to 40 ms for 64 MiB on
the H200 machines) and mapping its pages as they are first written (at 4096^3 longer than the call itself).
- Results under PAGEABLE_FROM_BYTES come in pinned memory (pinned.result_array: a freed pinned block of the size
  comes back at once, and the copy engine writes it where it lies). Pinning a few MiB costs a few calls' time.
- Larger results come in ordinary (pageable) memory of the library's own, in blocks whose size is rounded up to
  2 MiB:
  - a freed result's block goes back to a pool (at most POOL_LIMIT_BYTES) and the next result of its size takes it,
    its pages mapped already: scripts that drop or replace their results reuse two or three blocks;
  - a new block's pages are mapped by background threads while the call's uploads and product run
    (madvise MADV_POPULATE_WRITE, Linux 5.14 and later, which maps pages without writing them, so the call's
    copies may write them at the same time);
  - a spare block of the latest size waits, its pages mapped in the background: the next result of the size takes
    it when the pool has none, and a new spare starts whenever the pool has no block of the size left. Scripts that
    keep every result so have each result's pages mapped during the call before, as far as the threads get in that
    time (docs/experiments/2026-12-03-host-spare.md measures what is left). There is one spare at a time.
memory_held() counts the pool and the spare as "result_blocks"; release_memory() frees them.
"""
from __future__ import annotations

import collections
import ctypes
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import memory, pinned

PAGEABLE_FROM_BYTES = 16 << 20
POOL_LIMIT_BYTES = 1 << 30
_GRANULE = 2 << 20
_FLOAT32 = np.dtype(np.float32)
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_MADV_POPULATE_WRITE = 23
_MAPPING_THREADS = 8  # a new block's pages are mapped in this many pieces at once
_SPARE_THREADS = 4    # and a spare's in this many, as it has a whole call's time

_lock = threading.Lock()
_pool: dict[int, list[np.ndarray]] = collections.defaultdict(list)  # free blocks by size
_returned: collections.deque = collections.deque()  # blocks of freed results, moved into the pool under the lock
_spare: np.ndarray | None = None
_workers: ThreadPoolExecutor | None = None
_madvise = None  # libc's madvise where MADV_POPULATE_WRITE works, else False once found missing


def result_array(shape: tuple[int, int]) -> np.ndarray:
    """A new float32 array of `shape` for a host-path result (its contents undefined)."""
    nbytes = shape[0] * shape[1] * 4
    if nbytes < PAGEABLE_FROM_BYTES:
        return pinned.result_array(shape)
    size = -(-nbytes // _GRANULE) * _GRANULE
    global _spare
    with _lock:
        _take_returned()
        block = _from_pool(size)
        if block is None and _spare is not None and _spare.nbytes == size:
            block, _spare = _spare, None
        if block is None:
            block = _mapped_block(size, _MAPPING_THREADS)
        if not _pool[size] and (_spare is None or _spare.nbytes != size):
            _spare = _mapped_block(size, _SPARE_THREADS)
    # The block goes back to the pool when the result's last array goes. The deque's append is atomic: the release
    # may run in any thread, inside this module's locked code too, so it takes no lock.
    return pinned.array_over(block.ctypes.data, shape, _FLOAT32, _returned.append, block)


def _pool_bytes() -> int:
    return sum(size * len(blocks) for size, blocks in _pool.items())


def _take_returned() -> None:
    while _returned:
        block = _returned.popleft()
        if _pool_bytes() + block.nbytes <= POOL_LIMIT_BYTES:
            _pool[block.nbytes].append(block)


def _from_pool(size: int) -> np.ndarray | None:
    return _pool[size].pop() if _pool[size] else None


def _mapped_block(size: int, pieces: int) -> np.ndarray:
    """A new block of `size` bytes whose pages background threads map (where the system can), not waited for."""
    block = np.empty(size, np.uint8)
    madvise = _populate_call()
    if madvise:
        first = -(-block.ctypes.data // _PAGE) * _PAGE
        pages = (block.ctypes.data + size - first) // _PAGE
        bounds = [first + pages * i // pieces * _PAGE for i in range(pieces + 1)]
        for start, end in zip(bounds, bounds[1:]):
            _workers.submit(madvise, start, end - start, _MADV_POPULATE_WRITE)
    return block


def _populate_call():
    """libc's madvise and the mapping threads, or False where MADV_POPULATE_WRITE is not there (not Linux, or a
    kernel before 5.14): blocks are then mapped as the call's copies first write them."""
    global _madvise, _workers
    if _madvise is None:
        _madvise = False
        if sys.platform.startswith("linux"):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
            probe = np.empty(2 * _PAGE, np.uint8)
            page = -(-probe.ctypes.data // _PAGE) * _PAGE
            if page + _PAGE <= probe.ctypes.data + probe.nbytes and libc.madvise(page, _PAGE, _MADV_POPULATE_WRITE) == 0:
                _workers = ThreadPoolExecutor(_MAPPING_THREADS, thread_name_prefix="matmul_opt-map")
                _madvise = libc.madvise
    return _madvise


def held_bytes() -> int:
    """Bytes of pageable result blocks the library keeps for later results: the pool and the spare."""
    with _lock:
        _take_returned()
        return _pool_bytes() + (_spare.nbytes if _spare is not None else 0)


def release() -> None:
    """Frees the pool's blocks and the spare (results alive keep theirs)."""
    global _spare
    with _lock:
        _take_returned()
        _pool.clear()
        _spare = None


memory.register("result_blocks", held_bytes, release)
