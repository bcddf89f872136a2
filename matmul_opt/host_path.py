"""The host path: NumPy operands streamed to the GPU and back in panels by the library's host entry
(mm_gemm_host_problem), finished when the call returns, the result in memory from results.result_array.
The common call is read with few Python calls (plain); every other one is checked first (run)."""
from __future__ import annotations

import ctypes

import numpy as np

from . import results
from ._layout import INT_MAX, Operand, check_product, check_shape, gemm_arguments, layout
from ._library import check, library, pack_problem, thread_problem

_FLOAT32 = np.dtype(np.float32)


# The data address of a writable, non-empty array through the buffer protocol, _addressof(_from_buffer(array)): a
# third of the cost of array.ctypes.data, which builds a helper object every time (and a small product pays for three).
_addressof, _from_buffer = ctypes.addressof, ctypes.c_char.from_buffer


def check_matrix(name: str, array) -> np.ndarray:
    if not isinstance(array, np.ndarray):
        raise TypeError(
            f"{name} must be a NumPy ndarray or a GPU array (one with __cuda_array_interface__ or DLPack), got "
            f"{type(array).__name__}; convert it with np.asarray({name}, dtype=np.float32)"
        )
    check_shape(name, array.shape)
    if array.dtype != np.float32:
        if not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
            raise TypeError(f"{name} has non-numeric dtype {array.dtype}; only float32 matrices can be multiplied")
        if np.issubdtype(array.dtype, np.complexfloating):
            raise TypeError(f"{name} has complex dtype {array.dtype}; only real float32 matrices are supported")
        raise TypeError(f"{name} has dtype {array.dtype}, expected float32; convert it with {name}.astype(np.float32)")
    return array


def host_operand(array: np.ndarray) -> tuple[np.ndarray, Operand]:
    """The array the host entry reads and its (op, leading dimension, pointer): the array itself when its rows
    (op N) or its columns (op T: Fortran order, .T views) are contiguous, else a row-major copy."""
    flags = array.flags
    if flags.c_contiguous:  # the common case, without the general stride analysis
        ptr = _addressof(_from_buffer(array)) if flags.writeable and array.size else array.ctypes.data
        return array, (0, max(array.shape[1], 1), ptr)
    if all(s % array.itemsize == 0 for s in array.strides):
        found = layout(array.shape, tuple(s // array.itemsize for s in array.strides))
        if found is not None:
            return array, (*found, array.ctypes.data)
    copy = np.ascontiguousarray(array)
    return copy, (0, max(array.shape[1], 1), copy.ctypes.data)


def plain(kernel: str, A: np.ndarray, B: np.ndarray, alpha: float) -> np.ndarray | None:
    """run without out= and with beta = 0 for the common call, read without the general checks: A and B
    writable, C-ordered float32 matrices with no empty dimension. Returns None, having done nothing, for any other
    call, which then goes the general way (refusals included). Written for few Python calls, which a small product
    pays for on every call."""
    if A.dtype is not _FLOAT32 or B.dtype is not _FLOAT32 or A.ndim != 2 or B.ndim != 2:
        return None
    flags_a, flags_b = A.flags, B.flags
    if not (flags_a.c_contiguous and flags_b.c_contiguous and flags_a.writeable and flags_b.writeable):
        return None
    (M, K), (K_b, N) = A.shape, B.shape
    if K_b != K or not (0 < M <= INT_MAX and 0 < K <= INT_MAX and 0 < N <= INT_MAX):
        return None
    C = results.result_array((M, N))
    problem = thread_problem()
    pack_problem(problem, 0, 0, 0, M, N, K, alpha, _addressof(_from_buffer(A)), K, _addressof(_from_buffer(B)), N,
                 0.0, _addressof(_from_buffer(C)), N)
    status = library().mm_gemm_host_problem(kernel.encode(), problem)
    if status:
        check(status)
    return C


def run(kernel: str, A, B, out, alpha: float, beta: float, stream):
    """run() for host operands (NumPy arrays, or objects that are not GPU arrays, which check_matrix refuses)."""
    if stream is not None:
        raise ValueError("stream= applies to GPU arrays; NumPy operands are computed and copied back before run() "
                         "returns")
    A = check_matrix("A", A)
    B = check_matrix("B", B)
    if out is not None:
        check_matrix("out", out)
    M, N, K = check_product(A.shape, B.shape, None if out is None else out.shape,
                            out is not None and not out.flags.writeable)
    if M == 0 or N == 0 or K == 0:  # no product to compute: NumPy's zeros, or beta * out
        if out is None:
            return np.zeros((M, N), dtype=np.float32)
        if beta == 0:
            out[...] = 0
        else:
            out *= np.float32(beta)
        return out
    A, a = host_operand(A)
    B, b = host_operand(B)
    # An out whose rows and columns are both strided, or that shares memory with an input (the host path writes
    # panels of C while later panels of the inputs still go up), is computed in a copy, written back below.
    if out is not None and (np.may_share_memory(out, A) or np.may_share_memory(out, B)):
        C, c = host_operand(np.array(out, order="C"))
    else:
        C, c = host_operand(results.result_array((M, N)) if out is None else out)
    problem = thread_problem()
    pack_problem(problem, 0, *gemm_arguments(M, N, K, alpha, beta, a, b, c))
    check(library().mm_gemm_host_problem(kernel.encode(), problem))
    if out is None:
        return C
    if C is not out:
        out[...] = C
    return out
