"""GPU tier: the shortk kernel (a short K, C streamed out) against float64 at every K it takes and one past it (its
fallback), in every op combination, on ragged and unaligned matrices and on more strips of rows than a grid holds;
C starts as NaN, so an element left unwritten fails; results bitwise reproducible. (NaN and Inf: in
test_gpu_shape_grid.py.)"""
import pytest

from matmul_opt.accuracy import tolerance

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

from torch_products import OP_IDS, OPS, gemm, operands, relative_error, unaligned_product  # noqa: E402

MAX_K = 16  # cuda/kernels/shortk.h's kMaxK


def assert_accurate(C, a, b, K, what):
    error = relative_error(C, a, b)
    assert error <= tolerance("fp32", K), f"{what}: relative error {error:.3e}"


def shortk(M, N, K, ops, seed):
    A, B, a, b = operands(M, N, K, *ops, seed=seed)
    C = torch.full((M, N), float("nan"), device="cuda")
    gemm("shortk", *ops, A, B, C)
    return C, a, b


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("K", range(1, MAX_K + 2))
def test_shortk_at_every_k_and_op_combination(K, ops):
    """1027 rows: a strip of 128 with 3 live rows at the end; 901 columns: a panel of 128 with 5 live, one quad of
    them ragged."""
    C, a, b = shortk(1027, 901, K, ops, seed=K + 2 * ops[0] + ops[1])
    assert_accurate(C, a, b, K, f"shortk 1027x901x{K}, ops {ops}")


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(1, 1, 1), (1, 4099, 3), (4099, 1, 16), (129, 129, 9), (3000, 5000, 1)],
                         ids=lambda s: "x".join(map(str, s)))
def test_shortk_on_tiny_and_thin_shapes(shape, ops):
    M, N, K = shape
    C, a, b = shortk(M, N, K, ops, seed=M + N + 2 * ops[0] + ops[1])
    assert_accurate(C, a, b, K, f"shortk {M}x{N}x{K}, ops {ops}")


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(301, 517, 5), (517, 301, 16), (2, 1000, 1)], ids=lambda s: "x".join(map(str, s)))
def test_shortk_reads_and_writes_unaligned_matrices(shape, ops):
    M, N, K = shape
    C, a, b = unaligned_product("shortk", M, N, K, ops, seed=M + N)
    assert_accurate(C, a, b, K, f"shortk {shape}, ops {ops}")


@pytest.mark.parametrize("ops", [(0, 0), (1, 1)], ids=["NN", "TT"])
def test_shortk_strides_over_more_strips_than_a_grid_holds(ops):
    """65535 strips of 128 rows fill the grid; the blocks take the 2 strips past them on their second turn."""
    M = 65535 * 128 + 129
    C, a, b = shortk(M, 3, 2, ops, seed=11)
    assert_accurate(C, a, b, 2, f"shortk {M}x3x2, ops {ops}")


def test_shortk_gives_the_same_bits_every_time():
    A, B, _, _ = operands(2049, 3001, 13, 0, 0, seed=3)
    results = []
    for _ in range(3):
        C = torch.full((2049, 3001), float("nan"), device="cuda")
        gemm("shortk", 0, 0, A, B, C)
        results.append(C)
    assert torch.equal(results[0], results[1]) and torch.equal(results[0], results[2])
