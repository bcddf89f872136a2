"""GPU tier: the streamed host path (NumPy operands) and pinned arrays.

The shapes are chosen to cut the product into several panels (tall C), panels limited by the staging slot (long K),
and blocks narrower than a row (rows of B and C longer than a slot), as cuda/api/gemm_host.cu cuts them.
"""
import gc

import numpy as np
import pytest

import matmul_opt
from matmul_opt import _library, results
from matmul_opt.accuracy import relative_error

from conftest import run_in_threads

pytestmark = pytest.mark.gpu

STREAMED_SHAPES = [  # (M, N, K)
    (2500, 4096, 300),  # three panels of 1024 rows, the last one ragged
    (200, 64, 65536),  # a slot holds 64 rows of A: four panels
    (3, 5_000_000, 2),  # a row of C or B is larger than a slot: column blocks
    (9000, 1000, 33),  # panels of 4096 rows (a slot holds 4194 of C's rows), the last one ragged
]
KERNELS = ["best", "pipelined", "cublas"]


def operand(rng, shape, order):
    """A float32 matrix of `shape` stored C-ordered, Fortran-ordered or as the .T view of a C-ordered matrix."""
    if order == "T":
        return rng.uniform(-1, 1, shape[::-1]).astype(np.float32).T
    return np.asarray(rng.uniform(-1, 1, shape), dtype=np.float32, order=order)


def reference(A, B, alpha=1.0, beta=0.0, C=None):
    product = alpha * (A.astype(np.float64) @ B.astype(np.float64))
    return product if C is None else product + beta * C.astype(np.float64)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("shape", STREAMED_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_streamed_products_match_float64(kernel, shape, rng):
    if not matmul_opt.kernel_available(kernel):
        pytest.skip(f"{kernel} cannot run here")
    M, N, K = shape
    A, B = operand(rng, (M, K), "C"), operand(rng, (K, N), "C")
    C = matmul_opt.run(kernel, A, B)
    assert np.all(np.isfinite(C)), "unwritten (NaN) elements"
    assert relative_error(C, reference(A, B)) <= matmul_opt.tolerance("fp32", K)


@pytest.mark.parametrize("orders", ["CC", "TC", "CT", "TT", "FF"])
def test_streamed_layouts_with_alpha_beta_and_out(orders, rng):
    M, N, K = 2500, 1500, 200  # three panels
    A, B = operand(rng, (M, K), orders[0]), operand(rng, (K, N), orders[1])
    out = operand(rng, (M, N), "F" if orders == "FF" else "C")
    expected = reference(A, B, 0.5, -2.0, out)
    result = matmul_opt.run("best", A, B, out=out, alpha=0.5, beta=-2.0)
    assert result is out
    assert relative_error(out, expected) <= matmul_opt.tolerance("fp32", K)


@pytest.mark.parametrize("kernel", ["best", "splitk", "streamk"])
def test_the_same_inputs_give_the_same_bits(kernel, rng):
    if not matmul_opt.kernel_available(kernel):
        pytest.skip(f"{kernel} cannot run here")
    A, B = operand(rng, (2500, 300), "C"), operand(rng, (300, 4096), "C")
    first = matmul_opt.run(kernel, A, B)
    pinned_a, pinned_b = matmul_opt.empty_pinned(A.shape), matmul_opt.empty_pinned(B.shape)
    pinned_a[...], pinned_b[...] = A, B
    for _ in range(3):
        assert np.array_equal(matmul_opt.run(kernel, A, B), first)
        assert np.array_equal(matmul_opt.run(kernel, pinned_a, pinned_b), first)  # no staging, the same panels


def is_pinned(array: np.ndarray) -> bool:
    """What the CUDA runtime says of the array's memory (CuPy's binding of cudaPointerGetAttributes)."""
    runtime = pytest.importorskip("cupy").cuda.runtime
    return runtime.pointerGetAttributes(array.ctypes.data).type == runtime.memoryTypeHost


def test_empty_pinned_gives_pinned_arrays_that_multiply(rng):
    A, B = matmul_opt.empty_pinned((1500, 700)), matmul_opt.empty_pinned((700, 2100))
    out = matmul_opt.empty_pinned((1500, 2100))
    assert A.dtype == np.float32 and A.shape == (1500, 700) and A.flags.c_contiguous and A.flags.writeable
    assert is_pinned(A) and is_pinned(out) and not is_pinned(np.empty((1000, 1000), np.float32))
    A[...], B[...] = rng.uniform(-1, 1, A.shape), rng.uniform(-1, 1, B.shape)
    # Large enough host-path results come in pinned memory too, small ones in ordinary memory.
    assert is_pinned(matmul_opt.run("best", A, B)) and not is_pinned(matmul_opt.run("best", A[:8, :8], B[:8, :8]))
    out[...] = np.nan
    matmul_opt.run("best", A, B, out=out)
    assert relative_error(out, reference(A, B)) <= matmul_opt.tolerance("fp32", 700)
    # Views of pinned memory are pinned too; a pinned A with a pageable B works as well.
    assert is_pinned(A[100:, 50:])
    C = matmul_opt.run("best", A[100:, 50:], B[50:].copy())
    assert relative_error(C, reference(A[100:, 50:], B[50:])) <= matmul_opt.tolerance("fp32", 650)
    assert matmul_opt.empty_pinned(0).shape == (0,) and matmul_opt.empty_pinned((3, 4), np.float64).dtype == np.float64


def test_streamed_products_in_eight_threads(rng):
    problems = [(operand(rng, (1100 + 37 * i, 300), "C"), operand(rng, (300, 4096), "C")) for i in range(8)]
    failures = []

    def worker(index):
        A, B = problems[index]
        for _ in range(3):
            C = matmul_opt.run("best", A, B)
            error = relative_error(C, reference(A, B))
            if not error <= matmul_opt.tolerance("fp32", 300):
                failures.append((index, error))

    run_in_threads(worker)
    assert failures == []


def test_out_sharing_memory_with_an_input_gets_the_right_product(rng):
    A, B = operand(rng, (2500, 2500), "C"), operand(rng, (2500, 2500), "C")  # two panels of 1664 rows
    expected = reference(A, B, 0.5, 2.0, A)
    assert matmul_opt.run("best", A, B, out=A, alpha=0.5, beta=2.0) is A
    assert relative_error(A, expected) <= matmul_opt.tolerance("fp32", 2500)


def test_the_c_host_entry_refuses_c_over_an_input(rng):
    A = operand(rng, (300, 300), "C")
    pointer = A.ctypes.data
    status = _library.library().mm_gemm_host(b"best", 0, 0, 300, 300, 300, 1.0, pointer, 300, pointer, 300, 0.0,
                                             pointer, 300)
    with pytest.raises(ValueError, match="C overlaps A"):
        _library.check(status)


def test_memory_held_counts_what_the_host_path_keeps_and_release_memory_frees_it(rng):
    library_keys = ("pinned_cached", "pinned_staging", "device_pooled", "result_blocks")
    gc.collect()  # pinned arrays of earlier tests go now, not into the cache in the middle of this test
    matmul_opt.release_memory()
    assert {key: matmul_opt.memory_held()[key] for key in library_keys} == dict.fromkeys(library_keys, 0)

    def products():
        # Staged through the pinned slots: a product on the slot itself, one image in one copy, panels (device
        # copies from the pool, a result in a page-locked block); then a 4 MiB result, in a page-locked block too.
        for M, N, K in [(40, 50, 30), (500, 400, 300), (2500, 4096, 300), (1024, 1024, 256)]:
            A, B = operand(rng, (M, K), "C"), operand(rng, (K, N), "C")
            assert relative_error(matmul_opt.run("best", A, B), reference(A, B)) <= matmul_opt.tolerance("fp32", K)

    products()
    gc.collect()
    held = matmul_opt.memory_held()
    assert held["pinned_staging"] > 0 and held["device_pooled"] > 0, held
    assert held["result_blocks"] >= 1024 * 1024 * 4, held  # the freed 4 MiB result's block
    matmul_opt.release_memory()
    held = matmul_opt.memory_held()
    assert {key: held[key] for key in library_keys} == dict.fromkeys(library_keys, 0), held
    products()  # new staging sets, pinned blocks and pool memory


def test_large_results_come_page_locked_recycled_and_right_when_kept(rng):
    gc.collect()
    matmul_opt.release_memory()
    A, B = operand(rng, (1030, 300), "C"), operand(rng, (300, 1100), "C")  # a result of 4.3 MiB
    kept = [matmul_opt.run("best", A, B) for _ in range(3)]
    addresses = {C.__array_interface__["data"][0] for C in kept}
    assert len(addresses) == 3 and addresses <= set(results._locked)  # the copy engine writes them where they lie
    for C in kept:
        assert relative_error(C, reference(A, B)) <= matmul_opt.tolerance("fp32", 300)
    del kept, C
    gc.collect()
    again = matmul_opt.run("best", A, B)
    assert again.__array_interface__["data"][0] in addresses
    assert relative_error(again, reference(A, B)) <= matmul_opt.tolerance("fp32", 300)
    matmul_opt.release_memory()
    assert set(results._locked) == {again.__array_interface__["data"][0]}  # only the block alive stays locked
