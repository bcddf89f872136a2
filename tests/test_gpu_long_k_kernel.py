"""GPU tier: the longk kernels (a long K over a small C, every SM a K slice: longk's FFMA, longk_tf32's TF32 tensor
cores) against float64 at each of their tile sides and past them, in every op combination, with K not a multiple of
their stages, on unaligned matrices; C starts as NaN, so an element left unwritten fails; longk_tf32 as accurate as
cuBLAS TF32 over a long K; results bitwise reproducible."""
import pytest

import matmul_opt
from generated_tables import constant
from matmul_opt.accuracy import tolerance

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

from torch_products import OP_IDS, OPS, gemm, operands, relative_error, unaligned_product  # noqa: E402

ARITHMETIC = {"longk": "fp32", "longk_tf32": "tf32"}


def product(kernel, A, B, M, N, ops):
    C = torch.full((M, N), float("nan"), device="cuda")
    gemm(kernel, *ops, A, B, C)
    return C


def assert_accurate(kernel, C, a, b, K, what):
    error = relative_error(C, a, b)
    assert error <= tolerance(ARITHMETIC[kernel], K), f"{kernel} {what}: relative error {error:.3e}"


@pytest.mark.parametrize("kernel", ARITHMETIC)
@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(5, 7, 70001), (13, 11, 50003), (16, 13, 20003), (31, 29, 100003), (1, 32, 40000),
                                   (32, 1, 40000), (1, 64, 40000), (33, 60, 30001), (33, 65, 40001), (100, 65, 30001),
                                   (300, 40, 20001), (70, 200, 30001), (129, 130, 20001), (1, 1, 1), (3, 2, 63),
                                   (100, 3, 777), (129, 3, 777)],
                         ids=lambda s: "x".join(map(str, s)))
def test_at_every_tile_side_and_op_combination(kernel, shape, ops):
    """Tiles of 8 to 32 (longk) and 16 to 128 x 128 (longk_tf32: 64 x 128, 128 x 64 and 128 x 128 past 64, whose
    warps split the tile as well as K) with ragged rows and columns; C of several tiles (up to 3 x 1 and 2 x 2 of 128
    and 5 x 7 of 32); K of one partial stage; a C past one tile with a short K (few slices)."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, *ops, seed=M + 3 * N + 2 * ops[0] + ops[1])
    assert_accurate(kernel, product(kernel, A, B, M, N, ops), a, b, K, f"{shape}, ops {ops}")


@pytest.mark.parametrize("kernel", ARITHMETIC)
@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(7, 30, 30001), (17, 5, 20000), (50, 17, 20000)],
                         ids=lambda s: "x".join(map(str, s)))
def test_reads_unaligned_matrices(kernel, shape, ops):
    M, N, K = shape
    C, a, b = unaligned_product(kernel, M, N, K, ops, seed=M + N)
    assert_accurate(kernel, C, a, b, K, f"{shape}, ops {ops}")


@pytest.mark.parametrize("shape", [(64, 64, 1048576), (200, 30, 100000), (16, 16, 1000000), (130, 130, 1048576),
                                   (200, 200, 1048576)],
                         ids=lambda s: "x".join(map(str, s)))
def test_longk_tf32_is_as_accurate_as_cublas_tf32_over_a_long_k(shape):
    """Chains of at most kTf32MaxChainK per warp keep the tensor cores' own accumulation from adding to the error of
    the TF32 inputs, which is what cuBLAS TF32's is (130 x 130: 9 tiles of 64; 200 x 200: 4 tiles of 128 in 33
    slices, two warps' chains per slice, each about 15900 k, near the bound)."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, 0, 0, seed=K)
    ours = relative_error(product("longk_tf32", A, B, M, N, (0, 0)), a, b)
    theirs = relative_error(product("cublas_tf32", A, B, M, N, (0, 0)), a, b)
    assert ours <= 1.1 * theirs, f"longk_tf32 {shape}: error {ours:.3e} against cuBLAS TF32's {theirs:.3e}"


@pytest.mark.parametrize("kernel", ARITHMETIC)
def test_gives_the_same_bits_every_time(kernel):
    A, B, _, _ = operands(70, 45, 300001, 0, 1, seed=5)
    results = [product(kernel, A, B, 70, 45, (0, 1)) for _ in range(3)]
    assert torch.equal(results[0], results[1]) and torch.equal(results[0], results[2])


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(1, 1, 20000), (7, 5, 70001), (8, 8, 131071), (2, 6, 99999), (1, 1, 1000003),
                                   (6, 3, 777777), (8, 5, 400001)],
                         ids=lambda s: "x".join(map(str, s)))
def test_best_on_a_tiny_c_over_a_long_k(shape, ops):
    """best's long-K rule on a C of both sides at most 8: longk up to the table's bound of K per SM, the skinny kernel
    past it (on 132 SMs, the first four shapes and the last three), in every op combination. The route shows in
    best's result, bitwise that of the kernel it should run on the same inputs."""
    M, N, K = shape
    A, B, a, b = operands(M, N, K, *ops, seed=M + 5 * N + K % 97)
    C = product("best", A, B, M, N, ops)
    error = relative_error(C, a, b)
    assert error <= tolerance("fp32", K), f"best {shape}, ops {ops}: relative error {error:.3e}"
    sms = matmul_opt.device_info().sm_count
    tiny = (max(M, N) <= constant("kLongkTinyMaxSide", "best_table.h")
            and K <= constant("kLongkTinyMaxKPerSm", "best_table.h") * sms)
    expected = "longk" if tiny else "skinny"
    assert torch.equal(C, product(expected, A, B, M, N, ops)), f"best {shape}, ops {ops}: not {expected}'s bits"
