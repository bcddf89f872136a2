"""Helpers of the GPU tests that hold a kernel to the fp32-accurate contract: skipping where a kernel is not
available, and the contract itself at one K of the report's accuracy shape (256 x K x 256), both input kinds."""
import numpy as np
import pytest

import matmul_opt
from matmul_opt.accuracy import FP32_ACCURATE_CONTRACT
from matmul_opt.report import accuracy_over_k


def requires(*names):
    for name in names:
        if not matmul_opt.kernel_available(name):
            pytest.skip(f"{name} is not available on this machine")


def assert_keeps_fp32_accurate_contract(kernel: str, K: int):
    """kernel's error at most the contract's multiple of cuBLAS fp32's on fresh inputs of each kind."""
    requires(kernel, "cublas")
    errors = accuracy_over_k([kernel, "cublas"], [K], np.random.default_rng())
    for kind, error in errors.items():
        assert error[kernel][K] <= FP32_ACCURATE_CONTRACT[kind] * error["cublas"][K], f"{kind}, K = {K}: {error}"
