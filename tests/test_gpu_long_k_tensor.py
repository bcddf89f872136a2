"""GPU tier: longk_tf32 (longk's frame on TF32 tensor cores) against float64 at each of its tile sides and past
them, in every op combination, with K not a multiple of a stage, on unaligned matrices; C starts as NaN, so an
element left unwritten fails; as accurate as cuBLAS TF32 over a long K; results bitwise reproducible."""
import pytest

from matmul_opt.accuracy import tolerance

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

from torch_products import OP_IDS, OPS, gemm, operands, relative_error, unaligned_product  # noqa: E402

KERNEL = "longk_tf32"


def product(A, B, M, N, ops, kernel=KERNEL):
    C = torch.full((M, N), float("nan"), device="cuda")
    gemm(kernel, *ops, A, B, C)
    return C


def assert_accurate(C, a, b, K, what):
    error = relative_error(C, a, b)
    assert error <= tolerance("tf32", K), f"{KERNEL} {what}: relative error {error:.3e}"


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(5, 7, 70001), (16, 13, 20003), (31, 29, 100003), (1, 64, 40000), (64, 1, 40000),
                                   (33, 60, 30001), (100, 65, 30001), (300, 40, 20001), (1, 1, 1), (3, 2, 63),
                                   (129, 3, 777)],
                         ids=lambda s: "x".join(map(str, s)))
def test_at_every_tile_side_and_op_combination(shape, ops):
    """Tiles of 16, 32 and 64 with ragged rows and columns; C of 2 x 2 and 5 x 1 tiles of 64; K of one partial
    stage; a C past one tile with a short K (few slices)."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, *ops, seed=M + 3 * N + 2 * ops[0] + ops[1])
    assert_accurate(product(A, B, M, N, ops), a, b, K, f"{shape}, ops {ops}")


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(7, 30, 30001), (50, 17, 20000)], ids=lambda s: "x".join(map(str, s)))
def test_reads_unaligned_matrices(shape, ops):
    M, N, K = shape
    C, a, b = unaligned_product(KERNEL, M, N, K, ops, seed=M + N)
    assert_accurate(C, a, b, K, f"{shape}, ops {ops}")


@pytest.mark.parametrize("shape", [(64, 64, 1048576), (200, 30, 100000), (16, 16, 1000000)],
                         ids=lambda s: "x".join(map(str, s)))
def test_is_as_accurate_as_cublas_tf32_over_a_long_k(shape):
    """Chains of at most kTf32MaxChainK per warp keep the tensor cores' own accumulation from adding to the error of
    the TF32 inputs, which is what cuBLAS TF32's is."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, 0, 0, seed=K)
    ours = relative_error(product(A, B, M, N, (0, 0)), a, b)
    theirs = relative_error(product(A, B, M, N, (0, 0), kernel="cublas_tf32"), a, b)
    assert ours <= 1.1 * theirs, f"{KERNEL} {shape}: error {ours:.3e} against cuBLAS TF32's {theirs:.3e}"


def test_gives_the_same_bits_every_time():
    A, B, _, _ = operands(70, 45, 300001, 0, 1, seed=5)
    results = [product(A, B, 70, 45, (0, 1)) for _ in range(3)]
    assert torch.equal(results[0], results[1]) and torch.equal(results[0], results[2])
