"""Memory for the host path's NumPy results (run() without out=).

A result needs memory that is ready to be written when its panels come down. The copy engine writes page-locked
(pinned) memory where it lies; pageable memory is filled from pinned staging slots by CPU threads, panel by panel.
New memory is slow on two counts, mapping its pages and page-locking them, and both grow faster than the block:
a new pinned allocation (cudaHostAlloc) is the slowest way; page-locking fresh pageable memory with
cudaHostRegister, which maps the pages as it locks them, is several times cheaper for a few MiB, and for tens of MiB
it costs more than the call that fills the block (docs/experiments/2026-12-03-host-register.md). So:
- Results under LOCKED_FROM_BYTES come in ordinary memory, as before this module locked any: the host path stages
  them, and skips its pinned-memory query below 1 MiB (locking was not measured at these sizes).
- Results from LOCKED_FROM_BYTES to PAGEABLE_FROM_BYTES come in page-locked blocks of the library's own (locked as
  they are taken, while LOCKED_LIMIT_BYTES allows and the system agrees; pageable otherwise).
- Larger results come in pageable blocks of the library's own, whose pages background threads map (madvise
  MADV_POPULATE_WRITE, Linux 5.14 and later, which maps pages without writing them, so the call's copies may write
  them at the same time) while the call runs.
- A result of either kind that finds no block of its size in the pool takes the spare if it has that size, and
  starts a new spare of its size: a pageable block whose pages background threads map ahead of the call that takes
  it (locking a block whose pages are mapped costs a fraction of locking fresh memory, and mapping in the
  background leaves the driver alone, where a lock beside a call would contend with the call's own copies). So
  scripts that keep every result have each one's pages mapped during the call before, while scripts whose results
  come back to the pool start none. There is one spare at a time, of the latest such size. The mapping threads all
  start in the first call that needs them (which starts CUDA anyway), so that no later call waits for one to start.
Blocks are rounded up to 2 MiB and start on a 2 MiB boundary, marked for transparent huge pages (madvise
MADV_HUGEPAGE), which the system maps and locks faster than 4 KiB pages. A freed result's block goes back to a pool
(at most POOL_LIMIT_BYTES), locked or not as it was, and the next result of its size takes it: scripts that drop or
replace their results reuse two or three blocks. A result of PAGEABLE_FROM_BYTES or more that finds no free block of
its size takes the smallest free one up to LARGER_BLOCK_FACTOR times its size, rather than new memory: scripts that
alternate shapes then map new pages only for their largest result. memory_held() counts the pool and the spare as
"result_blocks"; release_memory() unlocks and frees them.
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
from ._library import MatmulError, check, library

LOCKED_FROM_BYTES = 1 << 20
PAGEABLE_FROM_BYTES = 16 << 20
LOCKED_LIMIT_BYTES = 4 << 30  # page-locked result blocks in all, alive and pooled
POOL_LIMIT_BYTES = 1 << 30
LARGER_BLOCK_FACTOR = 4  # a large result may take a free block up to this many times its size
_GRANULE = 2 << 20
_FLOAT32 = np.dtype(np.float32)
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_MADV_HUGEPAGE = 14
_MADV_POPULATE_WRITE = 23
_MAPPING_THREADS = 8  # a new block's pages are mapped in this many pieces at once
_SPARE_THREADS = 4    # and a spare's in this many, as it has a whole call's time
_START_TIMEOUT_S = 10.0  # how long the first call waits for the mapping threads to start

_lock = threading.Lock()
_pool: dict[int, list[np.ndarray]] = collections.defaultdict(list)  # free blocks by size
_returned: collections.deque = collections.deque()  # blocks of freed results, moved into the pool under the lock
_locked: dict[int, int] = {}  # the page-locked blocks, alive and pooled: size by address
_spare: np.ndarray | None = None
_made_locked_spare = False  # whether the process's first mid-sized spare was made (locked at once)
_workers: ThreadPoolExecutor | None = None
_madvise = None  # libc's madvise where MADV_POPULATE_WRITE works, else False once found missing (_madvise_call)


def result_array(shape: tuple[int, int]) -> np.ndarray:
    """A new float32 array of `shape` for a host-path result (its contents undefined)."""
    nbytes = shape[0] * shape[1] * 4
    if nbytes < LOCKED_FROM_BYTES:
        return np.empty(shape, np.float32)
    size = -(-nbytes // _GRANULE) * _GRANULE
    global _spare
    with _lock:
        _take_returned()
        block = _from_pool(size)
        if block is None:
            if _spare is not None and _spare.nbytes == size:
                block, _spare = _spare, None
            elif size < PAGEABLE_FROM_BYTES:
                block = _new_block(size)  # the lock below maps its pages
            else:
                block = _mapped_block(size, _MAPPING_THREADS)
            if size < PAGEABLE_FROM_BYTES and block.ctypes.data not in _locked:
                _lock_pages(block)
            if _spare is None or _spare.nbytes != size:
                if _spare is not None:
                    _unlock_pages(_spare)  # a first spare never taken
                _spare = _first_spare(size) if size < PAGEABLE_FROM_BYTES and not _made_locked_spare else \
                    _mapped_block(size, _SPARE_THREADS)
    # The block goes back to the pool when the result's last array goes. The deque's append is atomic: the release
    # may run in any thread, inside this module's locked code too, so it takes no lock.
    return pinned.array_over(block.ctypes.data, shape, _FLOAT32, _returned.append, block)


def _first_spare(size: int) -> np.ndarray:
    """The process's first mid-sized spare: locked at once, in the call that made the first mid-sized block, which
    is most often the process's first call and starts CUDA anyway; the next result then takes a block with nothing
    left to lock."""
    global _made_locked_spare
    _made_locked_spare = True
    block = _new_block(size)
    _lock_pages(block)
    return block


def _lock_pages(block: np.ndarray) -> None:
    """Page-locks `block` (mapping its pages) if LOCKED_LIMIT_BYTES allows and the system agrees; it stays pageable
    otherwise."""
    if sum(_locked.values()) + block.nbytes > LOCKED_LIMIT_BYTES:
        return
    try:
        check(library().mm_host_register(block.ctypes.data, block.nbytes))
    except MatmulError:  # no more lockable memory (or no GPU, where the call fails anyway): pageable still works
        return
    _locked[block.ctypes.data] = block.nbytes


def _unlock_pages(block: np.ndarray) -> None:
    if _locked.pop(block.ctypes.data, None) is not None:
        check(library().mm_host_unregister(block.ctypes.data))


def _pool_bytes() -> int:
    return sum(size * len(blocks) for size, blocks in _pool.items())


def _take_returned() -> None:
    while _returned:
        block = _returned.popleft()
        if _pool_bytes() + block.nbytes <= POOL_LIMIT_BYTES:
            _pool[block.nbytes].append(block)
        else:
            _unlock_pages(block)


def _from_pool(size: int) -> np.ndarray | None:
    """A free block of `size` bytes, or for a size from PAGEABLE_FROM_BYTES the smallest free block up to
    LARGER_BLOCK_FACTOR times it; None if there is none."""
    if _pool[size]:
        return _pool[size].pop()
    if size >= PAGEABLE_FROM_BYTES:
        larger = [s for s, blocks in _pool.items() if blocks and size < s <= LARGER_BLOCK_FACTOR * size]
        if larger:
            return _pool[min(larger)].pop()
    return None


def _new_block(size: int) -> np.ndarray:
    """`size` bytes (a multiple of 2 MiB) of new memory from a 2 MiB boundary, marked for transparent huge pages
    where the system has them: a block then has its pages, which locking works on, to itself, shared with no other
    allocation (another locked block's included), and the system maps and locks it in 2 MiB pages, fewer and
    cheaper than 4 KiB ones (NumPy asks for huge pages too, but only over the 2 MiB-aligned part of an array)."""
    memory = np.empty(size + _GRANULE, np.uint8)
    start = -memory.ctypes.data % _GRANULE
    block = memory[start:start + size]
    if _madvise_call():
        _madvise(block.ctypes.data, size, _MADV_HUGEPAGE)
    return block


def _mapped_block(size: int, pieces: int) -> np.ndarray:
    """A new block of `size` bytes whose pages background threads map (where the system can), not waited for: the
    call's copies may write them meanwhile, and mapping a page that is freed or mapped already does no harm."""
    block = _new_block(size)
    if _madvise_call():
        first = block.ctypes.data  # a page boundary
        bounds = [first + size // _PAGE * i // pieces * _PAGE for i in range(pieces + 1)]
        for start, end in zip(bounds, bounds[1:]):
            _workers.submit(_madvise, start, end - start, _MADV_POPULATE_WRITE)
    return block


def _madvise_call():
    """libc's madvise, with the threads that map pages through it, or False where MADV_POPULATE_WRITE is not there
    (not Linux, or a kernel before 5.14): new blocks are then neither mapped ahead nor marked for huge pages."""
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
                _start_every_worker()
    return _madvise


def _start_every_worker() -> None:
    """Starts all of _workers' threads at once, in the call that finds madvise (the first call of a process, which
    starts CUDA anyway): the executor starts a thread when a submit finds none idle, and each start held up the
    call that submitted (docs/experiments/2026-12-04-huge-pages.md, call 7)."""
    everyone = threading.Barrier(_MAPPING_THREADS + 1)
    try:
        for _ in range(_MAPPING_THREADS):
            _workers.submit(everyone.wait)  # each holds its thread until all have one: no submit finds one idle
        everyone.wait(timeout=_START_TIMEOUT_S)
    except (RuntimeError, threading.BrokenBarrierError):
        # A thread the system would not start, or not in time: the started ones go on, and the pool starts the rest
        # when submits need them, as it would have.
        everyone.abort()


def held_bytes() -> int:
    """Bytes of result blocks the library keeps for later results: the pool and the spare."""
    with _lock:
        _take_returned()
        return _pool_bytes() + (_spare.nbytes if _spare is not None else 0)


def release() -> None:
    """Unlocks and frees the pool's blocks and the spare (results alive keep theirs)."""
    global _spare
    with _lock:
        _take_returned()
        for blocks in _pool.values():
            for block in blocks:
                _unlock_pages(block)
        _pool.clear()
        if _spare is not None:
            _unlock_pages(_spare)
        _spare = None


memory.register("result_blocks", held_bytes, release)
