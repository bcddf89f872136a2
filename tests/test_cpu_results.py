"""CPU tier: where host-path results of 16 MiB or more come from (matmul_opt.results): recycled and prepared
pageable blocks, bounded, and freed on request. No GPU: these results never touch the library."""
import gc

import numpy as np
import pytest

import matmul_opt
from matmul_opt import results

LARGE = (2048, 2048 + 5)  # 16 MiB and a little: a block of 18 MiB


@pytest.fixture(autouse=True)
def empty_pool():
    gc.collect()
    results.release()
    yield
    gc.collect()
    results.release()


def address(array):
    return array.__array_interface__["data"][0]


def test_a_large_result_is_a_writable_float32_array_of_its_shape():
    C = results.result_array(LARGE)
    assert C.shape == LARGE and C.dtype == np.float32 and C.flags.c_contiguous and C.flags.writeable
    C[...] = 3.0
    assert C.sum(dtype=np.float64) == 3.0 * C.size


def test_a_freed_result_gives_its_block_to_the_next_result_of_its_size():
    C = results.result_array(LARGE)
    first = address(C)
    del C
    gc.collect()
    assert address(results.result_array(LARGE)) == first


def test_a_view_keeps_the_block_until_it_goes_too():
    C = results.result_array(LARGE)
    view, first = C[10:, 3:], address(C)
    del C
    gc.collect()
    view[...] = 1.0  # still the result's memory, not handed out again
    again = results.result_array(LARGE)
    assert address(again) != first and view.sum() == view.size


def test_kept_results_take_the_spare_that_the_last_new_block_started():
    kept = [results.result_array(LARGE) for _ in range(4)]
    assert len({address(C) for C in kept}) == 4
    # One spare of the size waits: the pool is empty and the four results are alive.
    assert results.held_bytes() == 18 << 20


def test_the_pool_is_bounded_and_release_frees_it(monkeypatch):
    monkeypatch.setattr(results, "POOL_LIMIT_BYTES", 40 << 20)
    kept = [results.result_array(LARGE) for _ in range(3)]
    del kept
    gc.collect()
    assert results.held_bytes() == 2 * (18 << 20) + (18 << 20)  # two of three blocks pooled, and the spare
    results.release()
    assert results.held_bytes() == 0


def test_small_results_leave_the_pageable_blocks_alone(monkeypatch):
    taken = []
    monkeypatch.setattr(results.pinned, "result_array", lambda shape: taken.append(shape) or np.empty(shape, np.float32))
    C = results.result_array((1000, 1000))
    assert taken == [(1000, 1000)] and C.shape == (1000, 1000) and results.held_bytes() == 0


def test_memory_held_counts_the_blocks_and_release_memory_frees_them():
    kept = results.result_array(LARGE)
    del kept
    gc.collect()
    assert matmul_opt.memory_held()["result_blocks"] == results.held_bytes() == 2 * (18 << 20)  # pooled, and the spare
    matmul_opt.release_memory()
    assert matmul_opt.memory_held()["result_blocks"] == 0
