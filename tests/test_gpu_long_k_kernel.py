"""GPU tier: the longk kernel (a long K over a small C, every SM a K slice) against float64 at each of its tile sides
and past them, in every op combination, with K not a multiple of its stages, on unaligned matrices; C starts as
NaN, so an element left unwritten fails; results bitwise reproducible."""
import pytest

from matmul_opt.accuracy import tolerance

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

from torch_products import OP_IDS, OPS, gemm, operands, relative_error, unaligned_product  # noqa: E402


def longk(A, B, M, N, ops):
    C = torch.full((M, N), float("nan"), device="cuda")
    gemm("longk", *ops, A, B, C)
    return C


def assert_accurate(C, a, b, K, what):
    error = relative_error(C, a, b)
    assert error <= tolerance("fp32", K), f"{what}: relative error {error:.3e}"


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(5, 7, 70001), (13, 11, 50003), (31, 29, 100003), (1, 32, 40000), (32, 1, 40000),
                                   (33, 65, 40001), (1, 1, 1), (3, 2, 63), (100, 3, 777)],
                         ids=lambda s: "x".join(map(str, s)))
def test_longk_at_every_tile_side_and_op_combination(shape, ops):
    """Tiles of 8, 16 and 32 with ragged rows and columns; C of 2 x 3 tiles; K of one partial stage; a C past one
    tile with a short K (few slices)."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, *ops, seed=M + 3 * N + 2 * ops[0] + ops[1])
    assert_accurate(longk(A, B, M, N, ops), a, b, K, f"longk {shape}, ops {ops}")


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(7, 30, 30001), (17, 5, 20000)], ids=lambda s: "x".join(map(str, s)))
def test_longk_reads_unaligned_matrices(shape, ops):
    M, N, K = shape
    C, a, b = unaligned_product("longk", M, N, K, ops, seed=M + N)
    assert_accurate(C, a, b, K, f"longk {shape}, ops {ops}")


def test_longk_gives_the_same_bits_every_time():
    A, B, _, _ = operands(29, 31, 300001, 0, 1, seed=5)
    results = [longk(A, B, 29, 31, (0, 1)) for _ in range(3)]
    assert torch.equal(results[0], results[1]) and torch.equal(results[0], results[2])
