"""GPU tier, hardening: fuzzed shapes and layouts, threads, leaks, huge problems, and the sticky-error rule."""
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import matmul_opt
from conftest import run_in_threads
from matmul_opt import _library
from matmul_opt.accuracy import error_scale, relative_error

pytestmark = pytest.mark.gpu

KERNELS = matmul_opt.kernels()


def available_kernels():
    try:
        return [info for info in KERNELS if matmul_opt.kernel_available(info.name)]
    except matmul_opt.MatmulError:
        return KERNELS  # no GPU: the tier is skipped anyway


def layout(array, order, transposed, offset):
    """The same values in another memory layout: Fortran order, a transposed copy, or a sliced window."""
    if transposed:
        array = np.ascontiguousarray(array.T).T
    if offset:
        rows, columns = array.shape
        padded = np.zeros((rows + offset, columns + 2 * offset), dtype=np.float32)
        padded[offset:, offset:offset + columns] = array
        array = padded[offset:, offset:offset + columns]
    return np.asfortranarray(array) if order == "F" else array


@pytest.mark.parametrize("info", available_kernels(), ids=lambda info: info.name)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    M=st.integers(1, 700), N=st.integers(1, 700), K=st.integers(1, 700),
    seed=st.integers(0, 2**32 - 1),
    order_a=st.sampled_from("CF"), order_b=st.sampled_from("CF"),
    transposed_a=st.booleans(), transposed_b=st.booleans(),
    offset_a=st.integers(0, 3), offset_b=st.integers(0, 3),
)
def test_random_shapes_and_layouts(info, M, N, K, seed, order_a, order_b, transposed_a, transposed_b,
                                   offset_a, offset_b):
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
    B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
    reference = A.astype(np.float64) @ B.astype(np.float64)
    C = matmul_opt.run(info.name, layout(A, order_a, transposed_a, offset_a), layout(B, order_b, transposed_b, offset_b))
    assert np.all(np.isfinite(C))
    # M and N go down to 1: measure against the products' size, not a sum that may cancel.
    assert relative_error(C, reference, error_scale(A, B)) <= matmul_opt.tolerance(info.arithmetic, K)


def test_eight_threads_get_correct_results_and_their_own_errors():
    kernel = "best"  # the top rung: 64-bit offsets and every tile configuration matter most there
    failures = []

    def worker(index):
        rng = np.random.default_rng(index)
        lib = _library.library()
        for step in range(20):
            M, N, K = 64 + index * 17, 96 + step * 5, 80 + index
            A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
            B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
            C = matmul_opt.run(kernel, A, B)
            error = relative_error(C, A.astype(np.float64) @ B)
            if not error <= matmul_opt.tolerance("fp32", K):
                failures.append(f"thread {index} step {step}: error {error}")
            # A C-level error whose message names this thread's own bad value, raced against the others.
            bad_lda = 1000 * index + step
            status = lib.mm_matmul_host(kernel.encode(), 2, 2, bad_lda + 1, A.ctypes.data, bad_lda,
                                        B.ctypes.data, 2, C.ctypes.data, 2)
            try:
                _library.check(status)
                failures.append(f"thread {index}: bad lda accepted")
            except ValueError as exc:
                if f"lda = {bad_lda} " not in str(exc):
                    failures.append(f"thread {index} got another thread's message: {exc}")

    run_in_threads(worker)
    assert failures == []


def rss_bytes():
    with open(f"/proc/{os.getpid()}/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_repeated_calls_leave_device_memory_and_rss_flat(rng):
    A = rng.uniform(-1, 1, (64, 48)).astype(np.float32)
    B = rng.uniform(-1, 1, (48, 80)).astype(np.float32)
    for _ in range(50):  # warm caches, pools and lazy loading first
        matmul_opt.run("advanced", A, B)
    matmul_opt.benchmark("advanced", 128, 128, 128, warmup=0, repetitions=1)
    free_before, rss_before = matmul_opt.device_info().free_memory_bytes, rss_bytes()
    for _ in range(1000):
        matmul_opt.run("advanced", A, B)
    for _ in range(100):
        matmul_opt.benchmark("advanced", 128, 128, 128, warmup=0, repetitions=1)
    free_after, rss_after = matmul_opt.device_info().free_memory_bytes, rss_bytes()
    assert free_before - free_after < 8 * 2**20, (free_before, free_after)
    assert rss_after - rss_before < 16 * 2**20, (rss_before, rss_after)


@pytest.mark.parametrize("M,N,K", [(50_000, 64, 50_000), (50_000, 50_000, 8)], ids=["A-over-2^31", "C-over-2^31"])
def test_arrays_past_2_to_the_31_elements(M, N, K):
    """64-bit offsets: rows far past element 2^31 of A or C are checked against float64 on sampled rows."""
    rng = np.random.default_rng()
    A = rng.random((M, K), dtype=np.float32) * 2 - 1
    B = rng.random((K, N), dtype=np.float32) * 2 - 1
    kernel = "best"  # the top rung: 64-bit offsets and every tile configuration matter most there
    C = matmul_opt.run(kernel, A, B)
    rows = np.array([0, 1, M // 2, M - 2, M - 1])
    reference = A[rows].astype(np.float64) @ B.astype(np.float64)
    assert np.all(np.isfinite(C[rows]))
    assert relative_error(C[rows], reference) <= matmul_opt.tolerance("fp32", K)
    assert np.all(np.isfinite(C[:, -1])) and np.all(np.isfinite(C[-1]))


def test_no_malformed_input_poisons_the_context(rng):
    """Every bad input class, Python- and C-level, then a correct product in the same process."""
    lib = _library.library()
    good = rng.uniform(-1, 1, (8, 8)).astype(np.float32)
    bad_inputs = [
        lambda: matmul_opt.run("nope", good, good),
        lambda: matmul_opt.run("advanced", good[0], good),
        lambda: matmul_opt.run("advanced", good, good[:5]),
        lambda: matmul_opt.run("advanced", good.astype(np.float64), good),
        lambda: matmul_opt.run("advanced", good.astype(object), good),
        lambda: matmul_opt.run("advanced", np.lib.stride_tricks.as_strided(good, (2**31, 8), (0, 4)), good),
        lambda: matmul_opt.benchmark("advanced", 10**6, 10**6, 10**6),  # out of memory
    ]
    for name in [info.name for info in available_kernels()]:
        for args in [(8, 8, 8, 7, 8, 8), (8, 8, 8, 8, 7, 8), (8, 8, 8, 8, 8, 7), (-1, 8, 8, 8, 8, 8)]:
            M, N, K, lda, ldb, ldc = args
            bad_inputs.append(lambda n=name, M=M, N=N, K=K, lda=lda, ldb=ldb, ldc=ldc: _library.check(
                lib.mm_matmul_host(n.encode(), M, N, K, good.ctypes.data, lda, good.ctypes.data, ldb,
                                   good.ctypes.data, ldc)))
        bad_inputs.append(lambda n=name: _library.check(
            lib.mm_matmul_host(n.encode(), 8, 8, 8, None, 8, good.ctypes.data, 8, good.ctypes.data, 8)))
    for call in bad_inputs:
        with pytest.raises((ValueError, TypeError, MemoryError)):
            call()
    for info in available_kernels():
        A = rng.uniform(-1, 1, (33, 65)).astype(np.float32)
        B = rng.uniform(-1, 1, (65, 17)).astype(np.float32)
        C = matmul_opt.run(info.name, A, B)
        assert relative_error(C, A.astype(np.float64) @ B) <= matmul_opt.tolerance(info.arithmetic, 65)
