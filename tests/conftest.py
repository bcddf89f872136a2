"""Test tiers: everything runs everywhere except tests marked `gpu`, which skip with the reason where no CUDA
device can be used (the CPU tier is what CI runs; the GPU tier runs on the H200)."""
from __future__ import annotations

import functools
import threading

import numpy as np
import pytest

import matmul_opt


@functools.lru_cache(maxsize=None)
def gpu_unavailable_reason() -> str | None:
    try:
        matmul_opt.device_info()
    except matmul_opt.MatmulError as exc:
        return str(exc)
    return None


def pytest_collection_modifyitems(config, items):
    reason = gpu_unavailable_reason()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def rng():
    """Fresh random inputs every run; the seed is printed on failure so a case can be replayed."""
    seed = np.random.SeedSequence().entropy
    print(f"numpy seed: {seed}")
    return np.random.default_rng(seed)



def run_in_threads(worker, count=8) -> None:
    """Runs worker(index) in `count` threads that start together, and waits for all of them."""
    barrier = threading.Barrier(count)

    def start(index):
        barrier.wait()
        worker(index)

    threads = [threading.Thread(target=start, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
