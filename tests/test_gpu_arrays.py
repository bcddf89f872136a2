"""GPU tier: GPU arrays in, GPU arrays out (CuPy and PyTorch on the H200), and the asynchronous C entry that
every kernel runs through: all four op combinations, alpha and beta, out=, streams, lifetimes, threads, and every
refused case followed by a correct product."""
import ctypes

import numpy as np
import pytest

import matmul_opt
from matmul_opt import _library, device_arrays, streams
from conftest import run_in_threads
from matmul_opt.accuracy import error_scale, relative_error, tolerance

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

KERNELS = matmul_opt.kernels()
ARITHMETIC = {info.name: info.arithmetic for info in KERNELS}


def available(name):
    return matmul_opt.kernel_available(name)


def host(x):
    """float64 NumPy copy of a torch or CuPy array."""
    return (x.cpu().numpy() if hasattr(x, "cpu") else x.get()).astype(np.float64)


def assert_close(kernel, C, A, B, alpha=1.0, beta=0.0, C0=None):
    """C against alpha * A @ B + beta * C0 in float64, measured against the size of the terms."""
    A64, B64 = host(A), host(B)
    expected = alpha * (A64 @ B64)
    scale = abs(alpha) * error_scale(A64, B64)
    if C0 is not None and beta != 0:
        expected = expected + beta * C0
        scale = scale + np.abs(beta * C0)
    error = relative_error(np.asarray(host(C), np.float32), expected, scale)
    assert error <= tolerance(ARITHMETIC[kernel], A64.shape[1]), f"{kernel}: relative error {error:.3e}"


def rand(*shape, device="cuda"):
    return torch.rand(*shape, device=device) * 2 - 1


@pytest.mark.parametrize("kernel", [info.name for info in KERNELS])
def test_every_kernel_takes_every_op_and_alpha_beta_through_the_async_entry(kernel):
    if not available(kernel):
        pytest.skip(f"{kernel} is not available on this machine")
    lib = _library.library()
    M, N, K = 77, 65, 93
    for op_a in (0, 1):
        for op_b in (0, 1):
            for alpha, beta in ((1.0, 0.0), (1.5, -0.5)):
                A = rand(M, K) if op_a == 0 else rand(K, M)
                B = rand(K, N) if op_b == 0 else rand(N, K)
                C = rand(M, N)
                C0 = host(C)
                stream = torch.cuda.current_stream().cuda_stream or streams.LEGACY_STREAM
                _library.check(lib.mm_gemm_async(kernel.encode(), op_a, op_b, M, N, K, alpha, A.data_ptr(),
                                                 A.shape[1], B.data_ptr(), B.shape[1], beta, C.data_ptr(), N, stream))
                torch.cuda.synchronize()
                assert_close(kernel, C, A if op_a == 0 else A.t(), B if op_b == 0 else B.t(), alpha, beta, C0)


@pytest.mark.parametrize("kernel", ["best", "naive", "cublas", "tma"])
@pytest.mark.parametrize("shape", [(300, 257, 129), (1, 1, 1), (64, 48, 4096)], ids=lambda s: "x".join(map(str, s)))
def test_torch_in_torch_out(kernel, shape):
    if not available(kernel):
        pytest.skip(f"{kernel} is not available on this machine")
    M, N, K = shape
    A, B = rand(M, K), rand(K, N)
    C = matmul_opt.run(kernel, A, B)
    assert isinstance(C, torch.Tensor) and C.device == A.device and C.dtype == torch.float32 and C.shape == (M, N)
    torch.cuda.synchronize()
    assert_close(kernel, C, A, B)


def test_cupy_in_cupy_out():
    cupy = pytest.importorskip("cupy")
    A = cupy.random.uniform(-1, 1, (129, 70)).astype(cupy.float32)
    B = cupy.random.uniform(-1, 1, (70, 33)).astype(cupy.float32)
    C = matmul_opt.run("best", A, B)
    assert isinstance(C, cupy.ndarray) and C.dtype == cupy.float32 and C.shape == (129, 33)
    cupy.cuda.runtime.deviceSynchronize()
    assert_close("best", C, A, B)


def test_transposed_views_and_fortran_order_run_without_copies(monkeypatch):
    def refuse(x, name):
        raise AssertionError(f"{name} was copied")

    monkeypatch.setattr(device_arrays, "contiguous_copy", refuse)
    A, B = rand(90, 70), rand(60, 90)  # used as A.t() (70 x 90) and B.t() (90 x 60)
    for a, b in ((A.t(), B.t()), (A.t(), B.t().contiguous()), (A.t().contiguous(), B.t())):
        C = matmul_opt.run("best", a, b)
        torch.cuda.synchronize()
        assert_close("best", C, a, b)


def test_other_strides_are_made_contiguous_on_the_gpu():
    A, B = rand(50, 120), rand(60, 40)
    a, b = A[:, ::2], B[::1, :]  # 50 x 60 with a column stride of 2
    C = matmul_opt.run("best", a, b)
    torch.cuda.synchronize()
    assert_close("best", C, a, b)


def test_out_row_and_column_major_with_alpha_and_beta():
    A, B = rand(70, 45), rand(45, 33)
    for out in (rand(70, 33), rand(33, 70).t()):  # row-major, and column-major (the transposed path)
        C0 = host(out)
        returned = matmul_opt.run("best", A, B, out=out, alpha=2.0, beta=-0.25)
        assert returned is out
        torch.cuda.synchronize()
        assert_close("best", out, A, B, 2.0, -0.25, C0)


def test_beta_zero_ignores_what_out_held():
    A, B = rand(40, 30), rand(30, 20)
    out = torch.full((40, 20), float("nan"), device="cuda")
    matmul_opt.run("best", A, B, out=out, alpha=0.5)
    torch.cuda.synchronize()
    assert torch.isfinite(out).all()
    assert_close("best", out, A, B, 0.5)


def test_k_zero_gives_beta_times_out():
    A, B = rand(5, 0), rand(0, 7)
    out = rand(5, 7)
    C0 = host(out)
    matmul_opt.run("best", A, B, out=out, beta=3.0)
    torch.cuda.synchronize()
    np.testing.assert_allclose(host(out), 3.0 * C0, rtol=1e-6)


class CAIVersion2:
    """A CuPy array's interface as version 2 (no stream)."""

    def __init__(self, array, readonly=False):
        iface = dict(array.__cuda_array_interface__, version=2)
        iface.pop("stream", None)
        iface["data"] = (iface["data"][0], readonly)
        self.__cuda_array_interface__ = iface
        self.array = array


class DLPackOnly:
    """A torch tensor seen only through DLPack."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None):
        return self.tensor.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()


def test_cai_version_2_and_3_and_dlpack_operands():
    cupy = pytest.importorskip("cupy")
    A = cupy.random.uniform(-1, 1, (64, 80)).astype(cupy.float32)
    B = cupy.random.uniform(-1, 1, (80, 48)).astype(cupy.float32)
    assert A.__cuda_array_interface__["version"] == 3
    out = cupy.empty((64, 48), dtype=cupy.float32)
    matmul_opt.run("best", CAIVersion2(A), B, out=CAIVersion2(out))  # versions 2 and 3 together
    cupy.cuda.runtime.deviceSynchronize()
    assert_close("best", out, A, B)
    a, b = rand(64, 80), rand(80, 48)
    c = torch.empty(64, 48, device="cuda")
    matmul_opt.run("best", DLPackOnly(a), DLPackOnly(b), out=c)
    torch.cuda.synchronize()
    assert_close("best", c, a, b)
    c.fill_(float("nan"))
    matmul_opt.run("best", DLPackOnly(a), DLPackOnly(b), out=DLPackOnly(c))  # no producer names a stream
    torch.cuda.synchronize()
    assert_close("best", c, a, b)
    with pytest.raises(ValueError, match="pass out="):  # nothing to allocate a result through
        matmul_opt.run("best", DLPackOnly(a), DLPackOnly(b))


def test_the_product_waits_for_the_producers_pending_writes():
    """The producer writes A on a side stream behind a long kernel; the product, on its own stream, must see it."""
    cupy = pytest.importorskip("cupy")
    A = cupy.zeros((256, 256), dtype=cupy.float32)
    B = cupy.random.uniform(-1, 1, (256, 256)).astype(cupy.float32)
    X = cupy.random.uniform(-1, 1, (4096, 4096)).astype(cupy.float32)
    side, other = cupy.cuda.Stream(non_blocking=True), cupy.cuda.Stream(non_blocking=True)
    with side:  # A's CAI names `side` as the stream of its pending writes
        for _ in range(20):
            X = X @ X * np.float32(1e-3)  # a few ms of work ahead of the write
        A[...] = X[:256, :256] + 1
        C = matmul_opt.run("best", A, B, stream=other)
    other.synchronize()
    side.synchronize()
    assert_close("best", C, A, B)
    s = torch.cuda.Stream()
    a, b = torch.zeros(256, 256, device="cuda"), rand(256, 256)
    with torch.cuda.stream(s):  # PyTorch's current stream is the producer's
        torch.cuda._sleep(50_000_000)
        a.fill_(0.5)
        c = matmul_opt.run("best", a, b)
    torch.cuda.synchronize()
    assert_close("best", c, a, b)


def test_inputs_deleted_right_after_the_call():
    """The product runs on a side stream held back by a long kernel. A and B are deleted at once: freed, their memory
    would go to the default stream's next allocations (PyTorch's allocator does not see the side stream's use), whose
    writes would reach it before the product reads it. The library keeps them alive until the product is done."""
    A, B = rand(4096, 4096), rand(4096, 4096)
    reference_a, reference_b = A.clone(), B.clone()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.cuda._sleep(100_000_000)
    C = matmul_opt.run("best", A, B, stream=side)
    del A, B
    junk = [torch.full((4096, 4096), 7.0, device="cuda") for _ in range(4)]
    torch.cuda.synchronize()
    del junk
    assert_close("best", C, reference_a, reference_b)


def test_eight_threads_with_their_own_streams():
    failures = []

    def worker(index):
        stream = torch.cuda.Stream()
        for step in range(10):
            M, N, K = 64 + index * 13, 80 + step * 7, 96 + index
            with torch.cuda.stream(stream):
                A, B = rand(M, K), rand(K, N)
                C = matmul_opt.run("best", A, B)
            stream.synchronize()
            try:
                assert_close("best", C, A, B)
            except AssertionError as exc:
                failures.append(f"thread {index} step {step}: {exc}")

    run_in_threads(worker)
    assert failures == []


def test_products_on_more_streams_than_a_thread_keeps_graphs_for():
    """Launches go through per-thread graphs, one per stream and kernel, a few kept (core/launch.h). Products on twelve
    streams in turn, with two kernels, replace graphs whose launches still wait behind slow work and give queued
    graphs new parameters; each product must read what its stream wrote just before it."""
    streams = [torch.cuda.Stream() for _ in range(12)]
    work = []
    for turn in range(3):
        for index, stream in enumerate(streams):
            with torch.cuda.stream(stream):
                if turn == 0:
                    torch.cuda._sleep(2_000_000)  # the first turn's launches wait behind this
                A, B = rand(96, 80), rand(80, 72)
                A.mul_(1.5)  # written on this stream right before the product
                kernel = ("best", "pipelined")[(index + turn) % 2]
                work.append((kernel, A, B, matmul_opt.run(kernel, A, B)))
    torch.cuda.synchronize()
    for kernel, A, B, C in work:
        assert_close(kernel, C, A, B)


def test_refused_cases_then_a_correct_product():
    cupy = pytest.importorskip("cupy")
    A, B = rand(32, 32), rand(32, 32)
    refused = [
        (ValueError, "out is read-only", lambda: matmul_opt.run(
            "best", cupy.asarray(A), cupy.asarray(B), out=CAIVersion2(cupy.empty((32, 32), cupy.float32), True))),
        (ValueError, "out has shape", lambda: matmul_opt.run("best", A, B, out=torch.empty(16, 32, device="cuda"))),
        (ValueError, "C overlaps A", lambda: matmul_opt.run("best", A, B, out=A)),
        (TypeError, "expected float32", lambda: matmul_opt.run("best", A.double(), B)),
        (TypeError, "expected float32", lambda: matmul_opt.run("best", cupy.asarray(A).astype(cupy.float64),
                                                                cupy.asarray(B))),
        (ValueError, "requires grad", lambda: matmul_opt.run("best", A.clone().requires_grad_(), B, alpha=2.0)),
        (ValueError, "not a CUDA GPU", lambda: matmul_opt.run("best", A.cpu(), B)),
        (ValueError, "mixed host and GPU", lambda: matmul_opt.run("best", A, B.cpu().numpy())),
        (ValueError, "beta", lambda: matmul_opt.run("best", A, B, beta=1.0)),
    ]
    for error, match, call in refused:
        with pytest.raises(error, match=match):
            call()
    C = matmul_opt.run("best", A, B)
    torch.cuda.synchronize()
    assert_close("best", C, A, B)


def test_numpy_out_alpha_and_beta():
    rng = np.random.default_rng()
    A = rng.uniform(-1, 1, (50, 40)).astype(np.float32)
    B = rng.uniform(-1, 1, (40, 30)).astype(np.float32)
    out = rng.uniform(-1, 1, (50, 30)).astype(np.float32)
    C0 = out.astype(np.float64)
    assert matmul_opt.run("best", A, B, out=out, alpha=-1.5, beta=0.75) is out
    expected = -1.5 * (A.astype(np.float64) @ B) + 0.75 * C0
    scale = 1.5 * error_scale(A, B) + np.abs(0.75 * C0)
    assert relative_error(out, expected, scale) <= tolerance("fp32", 40)
    scaled = matmul_opt.run("best", A, B, alpha=2.0)
    assert relative_error(scaled, 2.0 * (A.astype(np.float64) @ B), 2.0 * error_scale(A, B)) <= tolerance("fp32", 40)


def test_pointer_device_and_markers():
    lib = _library.library()
    A = rand(8, 8)
    device = ctypes.c_int(-1)
    _library.check(lib.mm_pointer_device(ctypes.c_void_p(A.data_ptr()), ctypes.byref(device)))
    assert device.value == A.device.index
    with pytest.raises(ValueError, match="not device memory"):
        _library.check(lib.mm_pointer_device(ctypes.c_void_p(A.cpu().numpy().ctypes.data), ctypes.byref(device)))
    marker, done = ctypes.c_void_p(), ctypes.c_int(0)
    _library.check(lib.mm_marker_record(device.value, streams.PER_THREAD_STREAM, ctypes.byref(marker)))
    torch.cuda.synchronize()
    _library.check(lib.mm_stream_wait(device.value, streams.PER_THREAD_STREAM, streams.LEGACY_STREAM))
    for _ in range(1000):
        _library.check(lib.mm_marker_finished(marker, ctypes.byref(done)))
        if done.value:
            break
    assert done.value == 1


def test_gemm_check_refuses_what_the_async_entry_refuses_and_enqueues_nothing():
    lib = _library.library()
    A, B, C = rand(8, 8), rand(8, 8), rand(8, 8)
    before = C.clone()

    def check(a, c):
        return lib.mm_gemm_check(b"best", 0, 0, 8, 8, 8, 1.0, a, 8, B.data_ptr(), 8, 0.0, c, 8, None)

    assert check(A.data_ptr(), C.data_ptr()) == 0
    assert check(A.data_ptr(), A.data_ptr()) == 1 and "C overlaps A" in lib.mm_last_error().decode()
    host_a = A.cpu().numpy()
    assert check(host_a.ctypes.data, C.data_ptr()) == 1 and "not device memory" in lib.mm_last_error().decode()
    torch.cuda.synchronize()
    assert torch.equal(C, before)


def test_a_product_inside_a_cuda_graph_capture_is_refused_and_the_capture_stays_valid():
    """The entry refuses a capturing stream before it touches it (its checks ask the driver about the stream, which a
    capture forbids, and such a call would invalidate the caller's capture): KernelUnavailableError naming the
    capture, a graph that still records and replays the caller's own work, and the library usable after it."""
    A, B = rand(64, 48), rand(48, 80)
    before = matmul_opt.run("best", A, B)
    counter = torch.zeros(16, device="cuda")
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        counter.add_(1)
        with pytest.raises(matmul_opt.KernelUnavailableError, match="capture"):
            matmul_opt.run("best", A, B)
    graph.replay()
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(counter, torch.full((16,), 2.0, device="cuda"))
    assert torch.equal(matmul_opt.run("best", A, B), before)
