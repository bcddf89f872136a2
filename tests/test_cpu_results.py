"""CPU tier: where host-path results of 1 MiB or more come from (matmul_opt.results): recycled blocks, page-locked
through the library (here a stand-in that records the calls) from 1 to 16 MiB and pageable from 16 MiB, a spare of
the latest new size prepared ahead, bounded, and freed on request."""
import gc
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import matmul_opt
from matmul_opt import results

LARGE = (2048, 2048 + 5)  # 16 MiB and a little: a pageable block of 18 MiB
BLOCK = 18 << 20
MID = (1030, 1100)  # 4.3 MiB: a locked block of 6 MiB
MID_BLOCK = 6 << 20


class PageLocks:
    """Stands in for libmatmul's mm_host_register / mm_host_unregister: the locked blocks by address."""

    def __init__(self, refuse=False):
        self.locked, self.refuse, self.unlocks = {}, refuse, 0

    def mm_host_register(self, address, nbytes):
        if self.refuse:
            return 3  # MM_ERR_CUDA: the system will not lock more
        assert address not in self.locked
        self.locked[address] = nbytes
        return 0

    def mm_host_unregister(self, address):
        del self.locked[address]
        self.unlocks += 1
        return 0

    def mm_last_error(self):
        return b"cudaHostRegister: out of lockable memory"


@pytest.fixture
def locks(monkeypatch):
    gc.collect()
    results.release()
    fake = PageLocks()
    monkeypatch.setattr(results, "library", lambda: fake)
    monkeypatch.setattr("matmul_opt._library.library", lambda: fake)
    yield fake
    gc.collect()
    results.release()


def address(array):
    return array.__array_interface__["data"][0]


def test_a_large_result_is_a_writable_float32_array_of_its_shape_in_a_pageable_block(locks):
    C = results.result_array(LARGE)
    assert C.shape == LARGE and C.dtype == np.float32 and C.flags.c_contiguous and C.flags.writeable
    assert locks.locked == {}
    C[...] = 3.0
    assert C.sum(dtype=np.float64) == 3.0 * C.size


def test_a_mid_sized_result_is_a_writable_float32_array_in_a_locked_block(locks):
    C = results.result_array(MID)
    assert C.shape == MID and C.dtype == np.float32 and C.flags.c_contiguous and C.flags.writeable
    assert locks.locked == {address(C): MID_BLOCK}
    C[...] = 2.0
    assert C.sum(dtype=np.float64) == 2.0 * C.size


@pytest.mark.parametrize("shape", [LARGE, MID])
def test_a_freed_result_gives_its_block_to_the_next_result_of_its_size(locks, shape):
    C = results.result_array(shape)
    first, locked = address(C), dict(locks.locked)
    del C
    gc.collect()
    again = results.result_array(shape)
    assert address(again) == first and locks.locked == locked and locks.unlocks == 0


def test_a_large_result_takes_a_freed_larger_block_when_none_of_its_size_is_free(locks):
    C = results.result_array((2 * LARGE[0], LARGE[1]))  # 32.1 MiB: a block of 34 MiB
    first = address(C)
    spare = results.held_bytes()
    del C
    gc.collect()
    smaller = results.result_array(LARGE)  # a block of 18 MiB: none free, so the freed 34 MiB one
    assert address(smaller) == first and smaller.shape == LARGE
    assert results.held_bytes() == spare  # no new spare for it either
    del smaller
    gc.collect()
    again = results.result_array((2 * LARGE[0], LARGE[1]))  # the block went back under its own size
    assert address(again) == first


def test_a_freed_block_more_than_four_times_a_result_is_left_for_larger_results(locks):
    C = results.result_array((9300, LARGE[1]))  # a block of 74 MiB: more than 4 x 18 MiB
    first = address(C)
    del C
    gc.collect()
    smaller = results.result_array(LARGE)
    assert address(smaller) != first


def test_mid_sized_results_take_blocks_of_their_own_size_only(locks):
    C = results.result_array(LARGE)
    first = address(C)
    del C
    gc.collect()
    mid = results.result_array(MID)  # locked blocks are not taken from larger pageable ones
    assert address(mid) != first and locks.locked == {address(mid): MID_BLOCK}


def test_a_view_keeps_the_block_until_it_goes_too(locks):
    C = results.result_array(LARGE)
    view, first = C[10:, 3:], address(C)
    del C
    gc.collect()
    view[...] = 1.0  # still the result's memory, not handed out again
    again = results.result_array(LARGE)
    assert address(again) != first and view.sum() == view.size


def test_kept_large_results_take_the_spare_that_the_last_new_block_started(locks):
    kept = [results.result_array(LARGE) for _ in range(4)]
    assert len({address(C) for C in kept}) == 4
    # One spare of the size waits: the pool is empty and the four results are alive.
    assert results.held_bytes() == BLOCK


def test_kept_mid_sized_results_are_locked_each_and_take_the_spare_that_the_last_started(locks):
    kept = [results.result_array(MID) for _ in range(3)]
    assert len({address(C) for C in kept}) == 3
    assert set(locks.locked) == {address(C) for C in kept}
    # One pageable spare of the size waits, not locked until a result takes it.
    assert results.held_bytes() == MID_BLOCK and len(locks.locked) == 3
    fourth = results.result_array(MID)
    assert address(fourth) in locks.locked and results.held_bytes() == MID_BLOCK


def test_a_large_result_back_in_the_pool_starts_no_spare(locks):
    C = results.result_array(LARGE)
    spare = results.held_bytes()
    del C
    gc.collect()
    C = results.result_array(LARGE)  # the freed block, from the pool
    assert results.held_bytes() == spare == BLOCK


def test_the_pool_is_bounded_and_a_locked_block_past_it_is_unlocked(locks, monkeypatch):
    monkeypatch.setattr(results, "POOL_LIMIT_BYTES", 2 * MID_BLOCK)
    kept = [results.result_array(MID) for _ in range(3)]
    del kept
    gc.collect()
    # Two pooled and the spare (pageable); the third block, past the bound, unlocked and freed.
    assert results.held_bytes() == 3 * MID_BLOCK and len(locks.locked) == 2 and locks.unlocks == 1


def test_release_unlocks_and_frees_the_pool_and_the_spare(locks):
    kept = [results.result_array(MID) for _ in range(2)] + [results.result_array(LARGE)]
    del kept
    gc.collect()
    assert results.held_bytes() == 2 * MID_BLOCK + 2 * BLOCK  # the pooled blocks and the large size's spare
    results.release()
    assert results.held_bytes() == 0 and locks.locked == {}


def test_past_the_lock_limit_results_stay_pageable(locks, monkeypatch):
    monkeypatch.setattr(results, "LOCKED_LIMIT_BYTES", 2 * MID_BLOCK)
    kept = [results.result_array(MID) for _ in range(3)]
    assert len(locks.locked) == 2 and address(kept[2]) not in locks.locked
    kept[2][...] = 2.0
    assert kept[2].sum(dtype=np.float64) == 2.0 * kept[2].size


def test_a_refused_lock_leaves_a_working_pageable_result(locks):
    locks.refuse = True
    C = results.result_array(MID)
    C[...] = 1.0
    assert locks.locked == {} and C.sum(dtype=np.float64) == C.size


@pytest.mark.parametrize("shape", [LARGE, MID])
def test_new_blocks_start_on_a_huge_page_boundary(locks, shape):
    assert address(results.result_array(shape)) % (2 << 20) == 0


def test_small_results_are_ordinary_arrays(locks):
    C = results.result_array((500, 500))  # under 1 MiB
    assert C.shape == (500, 500) and locks.locked == {} and results.held_bytes() == 0


def test_memory_held_counts_the_blocks_and_release_memory_frees_them(locks):
    kept = [results.result_array(LARGE), results.result_array(MID)]
    del kept
    gc.collect()
    # Both pooled, and the spare of the latest new size (the mid-sized one's replaced the large one's).
    assert matmul_opt.memory_held()["result_blocks"] == results.held_bytes() == BLOCK + 2 * MID_BLOCK
    matmul_opt.release_memory()
    assert matmul_opt.memory_held()["result_blocks"] == 0 and locks.locked == {}


def test_the_mapping_threads_all_start_with_their_pool(locks):
    # A thread the pool started later, when a submit found none idle, would hold up the call that submitted.
    if not results._madvise_call():
        pytest.skip("no MADV_POPULATE_WRITE on this system: nothing is mapped in the background")
    threads = [t for t in threading.enumerate() if t.name.startswith("matmul_opt-map")]
    assert len(threads) == results._MAPPING_THREADS


def test_a_mapping_thread_that_will_not_start_leaves_a_working_pool(monkeypatch):
    started = []

    def submit(self, fn, *args):
        if len(started) == 3:
            raise RuntimeError("can't start new thread")
        started.append(fn)
        return original(self, fn, *args)

    original = ThreadPoolExecutor.submit
    workers = ThreadPoolExecutor(results._MAPPING_THREADS, thread_name_prefix="matmul_opt-test")
    monkeypatch.setattr(results, "_workers", workers)
    monkeypatch.setattr(ThreadPoolExecutor, "submit", submit)
    results._start_every_worker()  # returns instead of waiting for threads that never come
    monkeypatch.setattr(ThreadPoolExecutor, "submit", original)
    assert len(started) == 3 and workers.submit(sum, [1, 2]).result(timeout=5) == 3
    workers.shutdown()
