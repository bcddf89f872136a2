"""GPU tier: the ozaki_int8 rung (fp32 accuracy from INT8 residue products) keeps the fp32-accurate contract at
every K of the report and past one INT8 chunk of K (cuBLAS fp32's error on uniform inputs, twice it on magnitudes
spread over 2^+-40), scales each line on its own (rows whose magnitudes lie up to 2^120 apart), and gives
the same bits on the same inputs. Inf, NaN, values near the fp32 maximum, every layout and ragged shapes are the
generic tests' (test_gpu_kernels.py, test_gpu_hardening.py)."""
import numpy as np
import pytest

import matmul_opt
from contract_checks import assert_keeps_fp32_accurate_contract, requires
from matmul_opt.accuracy import INPUT_KINDS, relative_error

pytestmark = pytest.mark.gpu

# From one product through the residue tile (128) to past one INT8 chunk (65536): two chunks' residues added.
KS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 70000]


@pytest.mark.parametrize("K", KS)
def test_ozaki_keeps_the_fp32_accurate_contract(K):
    assert_keeps_fp32_accurate_contract("ozaki_int8", K)


def test_ozaki_scales_every_row_and_column_on_its_own():
    """Rows of A at scales from 2^-60 to 2^60 (under the 2^64 from which values go to the fix-up) and columns of B
    from 2^-20 to 2^20: each line's own power of two keeps its bits, so every output is as accurate as cuBLAS
    fp32's, small ones included (a scale shared by the whole matrix would round the small lines away)."""
    requires("ozaki_int8", "cublas")
    rng = np.random.default_rng()
    M, N, K = 300, 200, 777
    A = (rng.uniform(-1, 1, (M, K)) * np.exp2(rng.integers(-60, 61, (M, 1)))).astype(np.float32)
    B = (rng.uniform(-1, 1, (K, N)) * np.exp2(rng.integers(-20, 21, (1, N)))).astype(np.float32)
    reference = A.astype(np.float64) @ B.astype(np.float64)
    scale = np.abs(A.astype(np.float64)) @ np.abs(B.astype(np.float64))
    errors = {name: np.max(np.abs(matmul_opt.run(name, A, B) - reference) / scale) for name in ("ozaki_int8", "cublas")}
    assert errors["ozaki_int8"] <= 2 * errors["cublas"], errors


@pytest.mark.parametrize("shape", [(256, 256, 1024), (1000, 300, 5000), (7, 5, 70_000)], ids=str)
def test_ozaki_gives_the_same_bits_on_the_same_inputs(shape):
    requires("ozaki_int8")
    M, N, K = shape
    rng = np.random.default_rng()
    spread = INPUT_KINDS["magnitudes 2^-40 .. 2^40"]
    A, B = spread(rng, (M, K)), spread(rng, (K, N))
    first, second = matmul_opt.run("ozaki_int8", A, B), matmul_opt.run("ozaki_int8", A, B)
    assert np.array_equal(first, second)
    reference = A.astype(np.float64) @ B.astype(np.float64)
    assert relative_error(first, reference) <= matmul_opt.tolerance("fp32_tensor", K)
