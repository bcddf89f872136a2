"""GPU tier: the kernels that take every op combination as stored (KernelInfo.native_ops) read op = T operands in
place. Every configuration best dispatches to, on each op combination, with aligned operands (the bulk-copy
kernels) and unaligned ones (their cp.async fallbacks); best's own choice on odd and on large shapes; and a
product whose row-major copy of op(A) would not fit in the device memory left, which only an in-place read runs."""
import numpy as np
import pytest

import matmul_opt
from matmul_opt import _library
from matmul_opt.accuracy import tolerance

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

from torch_products import OP_IDS, OPS, config_names, gemm, operands, relative_error  # noqa: E402

@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(520, 776, 1060), (301, 257, 129)], ids=["aligned", "unaligned"])
def test_every_configuration_of_best_takes_the_op_combination(ops, shape):
    """Forced through the tuner's hook, split and unsplit: the aligned shape (leading dimensions of multiples of 4
    floats, ragged edges, K not a multiple of the tile depth) runs the bulk-copy configurations themselves, the
    unaligned one (odd leading dimensions) their cp.async fallbacks' unaligned copies."""
    lib = _library.library()
    M, N, K = shape
    A, B, a, b = operands(M, N, K, *ops, seed=M + 2 * ops[0] + ops[1])
    try:
        for config, name in enumerate(config_names()):
            for splits in (1, 3):
                _library.check(lib.mm_best_force(config, splits))
                C = torch.full((M, N), float("nan"), device="cuda")
                gemm("best", *ops, A, B, C)
                error = relative_error(C, a, b)
                assert error <= tolerance("fp32", K), f"{name}, {splits} splits: relative error {error:.3e}"
    finally:
        _library.check(lib.mm_best_force(-1, 1))


@pytest.mark.parametrize("ops", OPS, ids=OP_IDS)
@pytest.mark.parametrize("shape", [(1025, 1023, 1021), (4095, 4097, 4093), (2048, 2048, 2048), (4096, 4096, 4096),
                                   (8192, 2048, 4096)], ids=lambda s: "x".join(map(str, s)))
def test_best_takes_every_op_combination_on_odd_and_large_shapes(ops, shape):
    M, N, K = shape
    A, B, a, b = operands(M, N, K, *ops, seed=K + 2 * ops[0] + ops[1])
    C = torch.full((M, N), float("nan"), device="cuda")
    gemm("best", *ops, A, B, C)
    error = relative_error(C, a, b)
    assert error <= tolerance("fp32", K), f"relative error {error:.3e}"


@pytest.mark.parametrize("stored", [(70, 90), (1100, 1030)], ids=["narrow-tiles", "wide-tiles"])
def test_an_operand_rearranged_on_the_gpu_gives_the_bits_of_its_row_major_copy(stored):
    """advanced takes row-major operands only, so op = T operands pass through the library's transposing gather
    (32-wide tiles for a small operand, 64-wide ones from two tiles per SM on: op(A) of 1030 x 1100 is 306 such tiles):
    the product equals, bit for bit, the same kernel's product of the row-major copies PyTorch makes."""
    K, M = stored
    N = 33
    A, B, a, b = operands(M, N, K, 1, 1, seed=K + M)
    results = []
    for ops, (x, y) in (((1, 1), (A, B)), ((0, 0), (a.contiguous(), b.contiguous()))):
        C = torch.full((M, N), float("nan"), device="cuda")
        gemm("advanced", *ops, x, y, C)
        results.append(C)
    assert torch.isfinite(results[0]).all()
    assert torch.equal(*results)


def test_best_reads_op_t_operands_in_place_where_a_rearranged_copy_would_not_fit():
    """A stored K x M takes 3 GiB; with 256 MiB of device memory left, best runs op(A)·op(B) for both op = T,
    while advanced, which takes row-major operands only, fails to allocate the row-major copy of op(A). (The copy is
    larger than what the library's workspace pool may keep of freed memory, 2 GiB: memory that the free count leaves
    out, from which a smaller copy could still come.)"""
    M, N, K = 98304, 256, 8192
    A, B, a, b = operands(M, N, K, 1, 1, seed=7)
    C, control = torch.full((M, N), float("nan"), device="cuda"), torch.empty(M, N, device="cuda")
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    free, _ = torch.cuda.mem_get_info()
    filler = torch.empty(free - (256 << 20), dtype=torch.uint8, device="cuda")
    try:
        gemm("best", 1, 1, A, B, C)
        with pytest.raises(matmul_opt.DeviceMemoryError):
            gemm("advanced", 1, 1, A, B, control)
    finally:
        del filler
        torch.cuda.empty_cache()
    rows = torch.randperm(M, device="cuda")[:256]  # a sample of C's rows against float64
    error = relative_error(C[rows], a[rows], b)
    assert error <= tolerance("fp32", K), f"relative error {error:.3e}"
    assert np.isfinite(C.cpu().numpy()).all()
