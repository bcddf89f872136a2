"""GPU tier: the pairwise rung's order of summation keeps its error within the fp32-accurate contract at every K
(cuBLAS fp32's error on uniform inputs, twice it on magnitudes spread over 2^+-40), and gives the same bits on the
same inputs.

The report's accuracy shape (256 x K x 256) on fresh inputs: over its 65536 outputs the error measure moves by well
under 1% from draw to draw, while the order's margin under cuBLAS's on uniform inputs is 2 to 3% at K = 16 and wider
past it (docs/experiments/2026-12-03-summation-order.md emulates the order; on spread magnitudes the H200 measured
0.9 to 1.12x, docs/experiments/2026-12-03-pairwise.md)."""
import numpy as np
import pytest

import matmul_opt
from contract_checks import assert_keeps_fp32_accurate_contract, requires
from matmul_opt.accuracy import FP32_ACCURATE_CONTRACT, INPUT_KINDS, error_scale, relative_error

pytestmark = pytest.mark.gpu

# From one product, through one K tile (16), one fold (32) and one slice (512), to many slices.
KS = [1, 4, 16, 64, 256, 1024, 4096, 16384]


def on_device(array):
    cupy = pytest.importorskip("cupy")
    return cupy.asarray(array)


@pytest.mark.parametrize("K", KS)
def test_pairwise_keeps_the_fp32_accurate_contract(K):
    assert_keeps_fp32_accurate_contract("pairwise", K)


@pytest.mark.parametrize("shape", [(256, 256, 1024), (1000, 300, 5000), (7, 5, 100_000), (2999, 29, 5000)], ids=str)
def test_pairwise_gives_the_same_bits_on_the_same_inputs(shape):
    requires("pairwise")
    M, N, K = shape
    rng = np.random.default_rng()
    uniform = INPUT_KINDS["uniform [-1, 1]"]
    A, B = on_device(uniform(rng, (M, K))), on_device(uniform(rng, (K, N)))
    first, second = matmul_opt.run("pairwise", A, B), matmul_opt.run("pairwise", A, B)
    assert np.array_equal(first.get(), second.get())


# Panels, which pairwise runs on panel tiles with a fold every 64 k: few rows (32 x 128), up to 32 columns
# (128 x 32) and more columns (64 x 64); ragged edges, K within one fold, over several folds, and past one slice of
# 4096 (two and three slices added pairwise).
PANELS = [(37, 2999, 1100), (2999, 29, 5000), (3001, 45, 700), (17, 1000, 9000), (29, 3000, 50)]


@pytest.mark.parametrize("ops", ["NN", "NT", "TN", "TT"])
@pytest.mark.parametrize("shape", PANELS, ids=lambda s: "x".join(map(str, s)))
def test_pairwise_panels_take_every_op_combination_with_alpha_and_beta(shape, ops, rng):
    requires("pairwise")
    M, N, K = shape
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    C0 = rng.uniform(-1, 1, (M, N)).astype(np.float32)
    # op T: the operand stored transposed, passed as the transposed view of that storage.
    a = on_device(A.T.copy()).T if ops[0] == "T" else on_device(A)
    b = on_device(B.T.copy()).T if ops[1] == "T" else on_device(B)
    out = on_device(C0)
    matmul_opt.run("pairwise", a, b, out, alpha=1.5, beta=-0.5)
    expected = 1.5 * (A.astype(np.float64) @ B.astype(np.float64)) - 0.5 * C0.astype(np.float64)
    scale = 1.5 * error_scale(A, B) + 0.5 * np.abs(C0.astype(np.float64))
    error = relative_error(out.get(), expected, scale)
    assert error <= matmul_opt.tolerance("fp32", K), f"{shape} {ops}: {error:.3e}"


@pytest.mark.parametrize("kind", list(INPUT_KINDS))
@pytest.mark.parametrize("shape", [(100, 11008, 4096), (4000, 33, 1000), (129, 4097, 2000)],
                         ids=lambda s: "x".join(map(str, s)))
def test_pairwise_keeps_the_fp32_accurate_contract_on_panels(shape, kind):
    """The panels where best_fp32_accurate ran best past the contract on uniform inputs
    (docs/experiments/2026-12-03-ozaki-rung.md); pairwise's panel order keeps them within it
    (docs/experiments/2026-12-05-panel-fold.md has the H200's figures)."""
    requires("pairwise", "cublas")
    M, N, K = shape
    rng = np.random.default_rng(M + N + K)
    A = on_device(INPUT_KINDS[kind](rng, (M, K)))
    B = on_device(INPUT_KINDS[kind](rng, (K, N)))
    reference = A.get().astype(np.float64) @ B.get().astype(np.float64)
    errors = {name: relative_error(matmul_opt.run(name, A, B).get(), reference) for name in ("pairwise", "cublas")}
    assert errors["pairwise"] <= FP32_ACCURATE_CONTRACT[kind] * errors["cublas"], f"{kind}, {shape}: {errors}"
