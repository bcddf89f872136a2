"""Matrices as the C entry points take them, shared by the host path (api.py) and GPU arrays (device_arrays.py):
the limit on a dimension, the op flag and leading dimension a matrix's strides give, and the arguments of
mm_gemm_host / mm_gemm_async for a result stored either way."""
from __future__ import annotations

INT_MAX = 2**31 - 1


def check_shape(name: str, shape) -> tuple[int, int]:
    """(rows, columns) of a 2-D shape whose sizes the library takes; ValueError otherwise."""
    if len(shape) != 2:
        raise ValueError(f"{name} must be 2-D (a matrix), got {len(shape)}-D with shape {tuple(shape)}")
    for axis, size in enumerate(shape):
        if size > INT_MAX:
            raise ValueError(f"{name}.shape[{axis}] = {size} exceeds the library's limit of {INT_MAX}")
    return int(shape[0]), int(shape[1])


def check_product(a_shape: tuple[int, int], b_shape: tuple[int, int], out_shape: tuple[int, int] | None = None,
                  out_readonly: bool = False, kind: str = "array") -> tuple[int, int, int]:
    """(M, N, K) of A @ B into out (when given); ValueError for inner dimensions that differ, an out of another shape
    or a read-only out (`kind` names the arrays the message asks for)."""
    (M, K), (K2, N) = a_shape, b_shape
    if K != K2:
        raise ValueError(f"inner dimensions differ: A is {M}x{K} and B is {K2}x{N}; A's columns must equal B's rows")
    if out_shape is not None:
        if tuple(out_shape) != (M, N):
            raise ValueError(f"out has shape {tuple(out_shape)}, expected {(M, N)} (A's rows by B's columns)")
        if out_readonly:
            raise ValueError(f"out is read-only; pass a writable float32 {kind}")
    return M, N, K


def element_strides(name: str, byte_strides) -> tuple[int, int]:
    """Strides in float32 elements from strides in bytes; ValueError when they are not whole elements."""
    if len(byte_strides) != 2 or any(s % 4 for s in byte_strides):
        raise ValueError(f"{name} has strides {tuple(byte_strides)} bytes, not whole float32 elements")
    return byte_strides[0] // 4, byte_strides[1] // 4


def layout(shape: tuple[int, int], strides: tuple[int, int]) -> tuple[int, int] | None:
    """(op, leading dimension) of a matrix with these strides (in elements): op 0 when its rows are contiguous,
    op 1 when its columns are (it is then the transpose of a row-major matrix); None when neither is."""
    rows, cols = shape
    row_stride, column_stride = strides
    if (cols <= 1 or column_stride == 1) and (rows <= 1 or row_stride >= cols):
        return 0, max(row_stride if rows > 1 else cols, cols, 1)
    if (rows <= 1 or row_stride == 1) and (cols <= 1 or column_stride >= rows):
        return 1, max(column_stride if cols > 1 else rows, rows, 1)
    return None


Operand = tuple[int, int, int]  # (op, leading dimension, pointer)


def gemm_arguments(M: int, N: int, K: int, alpha: float, beta: float, a: Operand, b: Operand, c: Operand) -> tuple:
    """The arguments of mm_gemm_host and mm_gemm_async after the kernel name (and before mm_gemm_async's stream)
    for C = alpha·op(A)·op(B) + beta·C. The entry points write C row-major; a column-major C (op 1) is computed as
    its transpose, C^T = op(B)^T op(A)^T, a row-major N x M product."""
    (op_a, lda, pa), (op_b, ldb, pb), (op_c, ldc, pc) = a, b, c
    if op_c == 0:
        return op_a, op_b, M, N, K, alpha, pa, lda, pb, ldb, beta, pc, ldc
    return 1 - op_b, 1 - op_a, N, M, K, alpha, pb, ldb, pa, lda, beta, pc, ldc
