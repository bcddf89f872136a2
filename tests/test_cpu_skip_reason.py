"""CPU tier: the GPU tests' skip reason (conftest.skip_reason) says what this machine lacks (the library, the NVIDIA
driver, a device) and what to do, in one line, not the CUDA runtime's words: without any driver it reports an
"insufficient" one (cudaErrorInsufficientDriver)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import conftest
from conftest import skip_reason
from matmul_opt import LibraryNotFoundError, NoDeviceError

ROOT = Path(__file__).resolve().parent.parent
INSUFFICIENT = NoDeviceError("no usable CUDA device: is an NVIDIA GPU with its driver present? cudaGetDeviceCount: "
                             "CUDA driver version is insufficient for CUDA runtime version "
                             "(cudaErrorInsufficientDriver)", 4)


def no_driver():
    raise OSError("libcuda.so.1: cannot open shared object file: No such file or directory")


def driver(state):
    return dict(load_driver=lambda: object(), driver_state=lambda _: state)


def test_no_gpu_and_no_driver_is_said_so_not_an_insufficient_driver():
    reason = skip_reason(INSUFFICIENT, load_driver=no_driver, device_nodes=lambda: [])
    assert reason.startswith("no NVIDIA GPU and no NVIDIA driver on this machine")
    assert "insufficient" not in reason.lower() and "\n" not in reason
    assert "-m 'not gpu'" in reason  # what to do


def test_a_device_without_its_driver_library():
    reason = skip_reason(INSUFFICIENT, load_driver=no_driver, device_nodes=lambda: ["/dev/nvidia0"])
    assert reason.startswith("an NVIDIA device is present but no NVIDIA driver (libcuda.so.1 cannot be loaded: ")
    assert "install the driver" in reason and "\n" not in reason


@pytest.mark.parametrize("state", [(100, 0, 12080), (0, 0, 12080)])
def test_a_driver_that_sees_no_device(state):
    reason = skip_reason(NoDeviceError("no CUDA device is present", 4), **driver(state))
    assert reason.startswith("the NVIDIA driver is installed but sees no CUDA device")


def test_a_driver_older_than_the_runtime_is_named_with_its_version():
    reason = skip_reason(INSUFFICIENT, **driver((0, 1, 11080)))
    assert reason.startswith("the NVIDIA driver supports CUDA 11.8 only, older than the CUDA runtime")
    assert "update the driver" in reason


def test_the_library_not_built():
    error = LibraryNotFoundError("libmatmul.so not found at /x/libmatmul.so. Build it with `invoke build` (or `make`)\n"
                                 "in the repository root.")
    assert skip_reason(error) == ("libmatmul.so not found at /x/libmatmul.so. Build it with `invoke build` (or `make`) "
                                  "in the repository root.")


def test_this_machines_reason_names_what_is_missing():
    reason = conftest.gpu_unavailable_reason()
    if reason is None:
        pytest.skip("this machine has a usable CUDA device")
    assert "\n" not in reason
    try:
        conftest._load_driver()
    except OSError:
        assert "no NVIDIA driver" in reason and "insufficient" not in reason.lower(), reason


def test_without_the_library_gpu_modules_skip_with_the_reason_instead_of_failing_to_collect(tmp_path):
    """test_gpu_kernels lists the library's kernels at import; without the library it is skipped, saying so."""
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                          "tests/test_gpu_kernels.py"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, MATMUL_OPT_LIBRARY=str(tmp_path / "libmatmul.so")))
    assert run.returncode == 5, run.stdout + run.stderr  # no tests collected; a collection error would be 2
    assert f"SKIPPED [1] tests/test_gpu_kernels.py: libmatmul.so not found at {tmp_path / 'libmatmul.so'}" in run.stdout
    assert "invoke build" in run.stdout
