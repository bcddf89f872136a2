"""Products on PyTorch tensors for the GPU tests: operands of each op combination, mm_gemm_async on them, and the
error against a float64 product computed on the GPU (for shapes too large for a CPU reference). Import it after
pytest.importorskip("torch")."""
import ctypes

import torch

from matmul_opt import _library, streams

OPS = [(op_a, op_b) for op_a in (0, 1) for op_b in (0, 1)]
OP_IDS = ["NN", "NT", "TN", "TT"]


def operands(M, N, K, op_a, op_b, seed):
    """A and B as stored for the op flags (uniform in [-1, 1]), and op(A), op(B) as views."""
    generator = torch.Generator(device="cuda").manual_seed(seed)
    A = torch.rand(*((M, K) if op_a == 0 else (K, M)), device="cuda", generator=generator) * 2 - 1
    B = torch.rand(*((K, N) if op_b == 0 else (N, K)), device="cuda", generator=generator) * 2 - 1
    return A, B, (A if op_a == 0 else A.t()), (B if op_b == 0 else B.t())


def unaligned(rows, cols, generator):
    """A rows x cols tensor uniform in [-1, 1] whose base and leading dimension are not multiples of 16 bytes."""
    storage = torch.rand(rows, cols + 3, device="cuda", generator=generator) * 2 - 1
    return storage[:, 1:cols + 1]


def unaligned_operands(M, N, K, op_a, op_b, seed):
    """As operands(), each stored unaligned (unaligned())."""
    generator = torch.Generator(device="cuda").manual_seed(seed)
    A = unaligned(*((M, K) if op_a == 0 else (K, M)), generator)
    B = unaligned(*((K, N) if op_b == 0 else (N, K)), generator)
    return A, B, (A if op_a == 0 else A.t()), (B if op_b == 0 else B.t())


def unaligned_product(kernel, M, N, K, ops, seed):
    """C = op(A)·op(B) by `kernel` with A, B and C all stored unaligned (C starts as NaN); returns C, op(A), op(B)."""
    A, B, a, b = unaligned_operands(M, N, K, *ops, seed=seed)
    C = unaligned(M, N, torch.Generator(device="cuda").manual_seed(seed + 1)).fill_(float("nan"))
    gemm(kernel, *ops, A, B, C)
    return C, a, b


def gemm(kernel, op_a, op_b, A, B, C, wait=True):
    """C = op(A)·op(B) through mm_gemm_async on the current stream, waited for unless not `wait`."""
    M, N = C.shape
    K = A.shape[1] if op_a == 0 else A.shape[0]
    stream = torch.cuda.current_stream().cuda_stream or streams.LEGACY_STREAM
    _library.check(_library.library().mm_gemm_async(kernel.encode(), op_a, op_b, M, N, K, 1.0, A.data_ptr(),
                                                    A.stride(0), B.data_ptr(), B.stride(0), 0.0, C.data_ptr(),
                                                    C.stride(0), stream))
    if wait:
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
