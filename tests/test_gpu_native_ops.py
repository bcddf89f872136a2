"""GPU tier: the kernels that take every op combination as stored (KernelInfo.native_ops) read op = T operands in
place. Every configuration best dispatches to, on each op combination, with aligned operands (the bulk-copy
kernels) and unaligned ones (their cp.async fallbacks); best's own choice on odd and on large shapes; and a
product whose row-major copy of op(A) would not fit in the device memory left, which only an in-place read runs."""
import ctypes

import numpy as np
import pytest

import matmul_opt
from matmul_opt import _library, device_arrays
from matmul_opt.accuracy import tolerance

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

OPS = [(op_a, op_b) for op_a in (0, 1) for op_b in (0, 1)]
OP_IDS = ["NN", "NT", "TN", "TT"]


def operands(M, N, K, op_a, op_b, seed):
    """A and B as stored for the op flags (uniform in [-1, 1]), and op(A), op(B) as views."""
    generator = torch.Generator(device="cuda").manual_seed(seed)
    A = torch.rand(*((M, K) if op_a == 0 else (K, M)), device="cuda", generator=generator) * 2 - 1
    B = torch.rand(*((K, N) if op_b == 0 else (N, K)), device="cuda", generator=generator) * 2 - 1
    return A, B, (A if op_a == 0 else A.t()), (B if op_b == 0 else B.t())


def gemm(kernel, op_a, op_b, A, B, C):
    """C = op(A)·op(B) through mm_gemm_async on the current stream, waited for."""
    M, N = C.shape
    K = A.shape[1] if op_a == 0 else A.shape[0]
    stream = torch.cuda.current_stream().cuda_stream or device_arrays.LEGACY_STREAM
    _library.check(_library.library().mm_gemm_async(kernel.encode(), op_a, op_b, M, N, K, 1.0, A.data_ptr(),
                                                    A.stride(0), B.data_ptr(), B.stride(0), 0.0, C.data_ptr(),
                                                    C.stride(0), stream))
    torch.cuda.synchronize()


def relative_error(C, a, b):
    """accuracy.relative_error against error_scale, computed in float64 on the GPU (the shapes here are large)."""
    a64, b64 = a.double(), b.double()
    if not torch.isfinite(C).all():
        return float("nan")
    scale = torch.sqrt((a64 * a64) @ (b64 * b64))
    return float(torch.linalg.norm(C.double() - a64 @ b64) / torch.linalg.norm(scale))


def config_names():
    lib = _library.library()
    names = []
    for config in range(lib.mm_best_config_count()):
        name = ctypes.c_char_p()
        _library.check(lib.mm_best_config_name(config, ctypes.byref(name)))
        names.append(name.value.decode())
    return names


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
