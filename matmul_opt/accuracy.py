"""How far a product may be from the truth: the error measure and the tolerance every check shares (the API's
`tolerance`, the tests, the report, the sanitizer driver and the asv suite), and the two kinds of input the
accuracy contracts are stated for."""
from __future__ import annotations

import math

import numpy as np

_FLOAT32_EPS = float(np.finfo(np.float32).eps)

# The arithmetic classes of the registry (cuda/matmul.h, mm_arithmetic), in the order of their C values.
ARITHMETICS = ("fp32", "tf32", "fp32_tensor")


def tolerance(arithmetic: str, K: int) -> float:
    """Bound on relative_error, ||C - C_ref||_F over the norm of the root-sum-square of each element's products
    (about ||C_ref||_F), for inputs uniform in [-1, 1].

    fp32: rounding errors of a K-term sum grow like sqrt(K) * eps for random signs; 4 * eps * sqrt(K) leaves a
    wide margin over what correct kernels show (about 1e-6 at K = 1024) yet is 100x below the error of a single
    wrong element in a 64x64 result. tf32 rounds each input to a 10-bit mantissa (relative error 2^-11), so the
    bound is 1e-2 whatever K is. fp32_tensor kernels promise fp32 accuracy and are held to the fp32 bound.
    """
    if arithmetic not in ARITHMETICS:
        raise ValueError(f"unknown arithmetic {arithmetic!r}: expected one of {', '.join(ARITHMETICS)}")
    if arithmetic == "tf32":
        return 1e-2
    return 4 * _FLOAT32_EPS * math.sqrt(max(K, 1)) + 1e-6


def error_scale(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """sqrt((A*A) @ (B*B)) in float64: for each element of A @ B, the root-sum-square of its K products, which is
    what the rounding errors of the sum grow with (not the sum itself, which cancellation can make tiny)."""
    A64, B64 = A.astype(np.float64), B.astype(np.float64)
    return np.sqrt((A64 * A64) @ (B64 * B64))


def relative_error(C: np.ndarray, reference: np.ndarray, scale: np.ndarray | None = None) -> float:
    """||C - ref||_F / ||scale||_F in float64; NaN if C holds NaN or Inf. `scale` is error_scale(A, B); without
    it, ref itself. For inputs uniform in [-1, 1] both have the same expected norm (sqrt(M N K) / 3), but over a
    few elements a sum that cancels makes ||ref|| tiny: a 1x25 by 25x1 product whose sum is 0.02, built from
    products of size about 1, shows a rounding error of order 1e-7 as about 5e-6 against the sum (the fp32 bound
    at K = 25 is 3.4e-6). Pass the scale where results may have few elements."""
    C64 = C.astype(np.float64)
    if not np.all(np.isfinite(C64)):
        return float("nan")
    denominator = reference if scale is None else scale
    return float(np.linalg.norm(C64 - reference) / np.linalg.norm(denominator))


def uniform(rng: np.random.Generator, shape) -> np.ndarray:
    """float32 uniform in [-1, 1]: the inputs every tolerance is stated for."""
    return rng.uniform(-1, 1, shape).astype(np.float32)


def log_uniform(rng: np.random.Generator, shape) -> np.ndarray:
    """float32 magnitudes log-uniform over [2^-40, 2^40] with random signs: sums whose terms differ in size by up to
    2^160, where an arithmetic that drops small terms or splits its inputs coarsely shows it."""
    return (np.exp2(rng.uniform(-40, 40, shape)) * rng.choice([-1.0, 1.0], shape)).astype(np.float32)


# The kinds of input the accuracy contracts name, by the label the report prints.
INPUT_KINDS = {"uniform [-1, 1]": uniform, "magnitudes 2^-40 .. 2^40": log_uniform}


# The fp32-accurate class's contract: its error at most this many times cuBLAS fp32's on the same inputs,
# per input kind, at every K.
FP32_ACCURATE_CONTRACT = {"uniform [-1, 1]": 1.0, "magnitudes 2^-40 .. 2^40": 2.0}
