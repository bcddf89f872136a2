"""Test tiers: everything runs everywhere except tests marked `gpu`, which skip with the reason where no CUDA
device can be used (the CPU tier is what CI runs; the GPU tier runs on the H200)."""
from __future__ import annotations

import ctypes
import functools
import glob
import threading

import numpy as np
import pytest

import matmul_opt

DRIVER_LIBRARY = "libcuda.so.1"  # the NVIDIA driver's CUDA library, which the CUDA runtime loads
_CUDA_ERROR_NO_DEVICE = 100
_RUN_ELSEWHERE = "run the GPU tests on a machine with one (-m 'not gpu' runs the CPU tier alone)"


def _load_driver():
    """The NVIDIA driver's CUDA library, or an OSError saying why it cannot be loaded."""
    return ctypes.CDLL(DRIVER_LIBRARY)


def _device_nodes() -> list[str]:
    return sorted(glob.glob("/dev/nvidia[0-9]*")) + sorted(glob.glob("/dev/dxg"))  # Linux; WSL


def _driver_state(driver) -> tuple[int, int, int]:
    """(cuInit's result, the number of devices, the CUDA version the driver supports as 1000*major + 10*minor)."""
    count, version = ctypes.c_int(0), ctypes.c_int(0)
    status = driver.cuInit(0)
    if status == 0:
        driver.cuDeviceGetCount(ctypes.byref(count))
    driver.cuDriverGetVersion(ctypes.byref(version))
    return status, count.value, version.value


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def skip_reason(exc: Exception, load_driver=_load_driver, device_nodes=_device_nodes, driver_state=_driver_state) -> str:
    """One line for the GPU tests' skip: what is missing on this machine (the library, the driver, a device) and what
    to do, instead of the CUDA runtime's own words (without a driver at all it reports an "insufficient" driver)."""
    if isinstance(exc, matmul_opt.LibraryNotFoundError):
        return _one_line(exc)  # "libmatmul.so not found at ...: build it with `invoke build` ..." or why it cannot load
    if isinstance(exc, matmul_opt.NoDeviceError):
        try:
            driver = load_driver()
        except OSError as error:
            if not device_nodes():
                return (f"no NVIDIA GPU and no NVIDIA driver on this machine (no /dev/nvidia* device, no "
                        f"{DRIVER_LIBRARY}): {_RUN_ELSEWHERE}")
            return (f"an NVIDIA device is present but no NVIDIA driver ({DRIVER_LIBRARY} cannot be loaded: "
                    f"{_one_line(error)}): install the driver, or make it visible to this container")
        try:
            status, count, version = driver_state(driver)
        except (AttributeError, OSError):
            status, count, version = None, None, 0
        if status == _CUDA_ERROR_NO_DEVICE or (status == 0 and count == 0):
            return ("the NVIDIA driver is installed but sees no CUDA device (check nvidia-smi and "
                    f"CUDA_VISIBLE_DEVICES), or there is no GPU: {_RUN_ELSEWHERE}")
        if "InsufficientDriver" in str(exc) and version:
            return (f"the NVIDIA driver supports CUDA {version // 1000}.{version % 1000 // 10} only, older than the "
                    "CUDA runtime libmatmul.so was built with: update the driver, or build with an older toolkit")
    return _one_line(exc)


@functools.lru_cache(maxsize=None)
def gpu_unavailable_reason() -> str | None:
    try:
        matmul_opt.device_info()
    except matmul_opt.MatmulError as exc:
        return skip_reason(exc)
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    """Without libmatmul.so, a GPU test module that lists the library's kernels at import cannot even be collected:
    skip it with the reason (the library is not built: what to do) rather than fail the run with its traceback."""
    outcome = yield
    report = outcome.get_result()
    if not (report.failed and isinstance(collector, pytest.Module)) or "LibraryNotFoundError" not in str(report.longrepr):
        return
    reason = gpu_unavailable_reason()
    if reason is not None:
        outcome.force_result(pytest.CollectReport(collector.nodeid, "skipped", (str(collector.path), None, reason), []))


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
