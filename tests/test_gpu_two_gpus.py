"""GPU tier, machines of two GPUs or more: operands all on a GPU other than the current one run there, with their
result there and the caller's current GPU unchanged; operands on different GPUs, and a stream of another GPU than
the operands', are refused before anything is enqueued, and a correct product follows; NumPy operands run on
whichever GPU is current."""
import numpy as np
import pytest

import matmul_opt
from matmul_opt.accuracy import error_scale, relative_error, tolerance
from test_gpu_arrays import ARITHMETIC, DLPackOnly, assert_close, rand

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                                 reason="needs two GPUs")]


@pytest.fixture
def on_gpu_0():
    """GPU 0 current for the test; the test's operands go to GPU 1."""
    previous = torch.cuda.current_device()
    torch.cuda.set_device(0)
    yield
    torch.cuda.set_device(previous)


@pytest.mark.parametrize("kernel", ["best", "naive", "cublas", "wgmma_3xtf32"])
def test_torch_operands_on_the_other_gpu_run_there(on_gpu_0, kernel):
    """The same products on GPU 0, then on GPU 1 with GPU 0 current: what a kernel sets up per GPU (function
    attributes, cuBLAS handles, workspaces) is set up again for GPU 1."""
    if not matmul_opt.kernel_available(kernel):
        pytest.skip(f"{kernel} is not available on this GPU")
    for device in ("cuda:0", "cuda:1"):
        A, B = rand(200, 136, device=device), rand(72, 136, device=device).T  # B as a transposed view
        C = matmul_opt.run(kernel, A, B)
        assert C.device == torch.device(device) and torch.cuda.current_device() == 0
        torch.cuda.synchronize(device)
        assert_close(kernel, C, A, B)
        out = rand(200, 72, device=device)
        C0 = out.double().cpu().numpy()
        matmul_opt.run(kernel, A, B, out=out, alpha=-0.5, beta=2.0)
        assert torch.cuda.current_device() == 0
        torch.cuda.synchronize(device)
        assert_close(kernel, out, A, B, alpha=-0.5, beta=2.0, C0=C0)


def test_a_stream_of_the_operands_gpu_orders_the_product(on_gpu_0):
    """stream= of GPU 1 while GPU 0 is current: the product runs on it, after the writes queued there before."""
    s1 = torch.cuda.Stream(device=1)
    A, B = torch.zeros(256, 256, device="cuda:1"), rand(256, 256, device="cuda:1")
    torch.cuda.synchronize(1)
    with torch.cuda.stream(s1):
        torch.cuda._sleep(50_000_000)
        A.fill_(0.25)
    assert torch.cuda.current_device() == 0  # torch.cuda.stream restored GPU 0
    C = matmul_opt.run("best", A, B, stream=s1)
    s1.synchronize()
    assert_close("best", C, A, B)  # A read as 0.25 everywhere: before the fill, the product would be 0


def test_cupy_and_dlpack_operands_on_the_other_gpu_run_there(on_gpu_0):
    cupy = pytest.importorskip("cupy")
    with cupy.cuda.Device(1):
        A = cupy.random.uniform(-1, 1, (96, 80)).astype(cupy.float32)
        B = cupy.random.uniform(-1, 1, (80, 112)).astype(cupy.float32)
    assert cupy.cuda.runtime.getDevice() == 0
    C = matmul_opt.run("best", A, B)
    assert C.device.id == 1 and cupy.cuda.runtime.getDevice() == 0
    with cupy.cuda.Device(1):
        cupy.cuda.runtime.deviceSynchronize()
    assert_close("best", C, A, B)
    a, b, c = rand(96, 80, device="cuda:1"), rand(80, 112, device="cuda:1"), torch.empty(96, 112, device="cuda:1")
    torch.cuda.synchronize(1)
    matmul_opt.run("best", DLPackOnly(a), DLPackOnly(b), out=c)
    torch.cuda.synchronize(1)
    assert_close("best", c, a, b)


def test_cupy_current_stream_of_the_operands_gpu_orders_the_product(on_gpu_0):
    """CuPy keeps a current stream per GPU. GPU 1's is a side stream that writes A behind a few ms of work; with GPU 0
    current, the product of GPU 1's operands runs on that stream, after the write."""
    cupy = pytest.importorskip("cupy")
    with cupy.cuda.Device(1):
        side = cupy.cuda.Stream(non_blocking=True)
        A = cupy.zeros((256, 256), dtype=cupy.float32)
        B = cupy.random.uniform(-1, 1, (256, 256)).astype(cupy.float32)
        X = cupy.random.uniform(-1, 1, (4096, 4096)).astype(cupy.float32)
        cupy.cuda.runtime.deviceSynchronize()
        side.use()  # GPU 1's current stream, also once GPU 0 is current again
    try:
        with cupy.cuda.Device(1):
            for _ in range(20):
                X = X @ X * np.float32(1e-3)  # on side
            A[...] = X[:256, :256] + 1
        C = matmul_opt.run("best", A, B)
        side.synchronize()
        assert_close("best", C, A, B)
    finally:
        with cupy.cuda.Device(1):
            cupy.cuda.Stream.null.use()


def test_operands_on_different_gpus_and_a_stream_of_another_gpu_are_refused(on_gpu_0):
    cupy = pytest.importorskip("cupy")
    A0, B0 = rand(32, 32, device="cuda:0"), rand(32, 32, device="cuda:0")
    A1, B1 = rand(32, 32, device="cuda:1"), rand(32, 32, device="cuda:1")
    out1 = rand(32, 32, device="cuda:1")
    before = out1.clone()
    refused = [
        ("different GPUs", lambda: matmul_opt.run("best", A0, B1)),
        ("different GPUs", lambda: matmul_opt.run("best", A1, B0.T)),
        ("different GPUs", lambda: matmul_opt.run("best", A0, B0, out=out1)),
        ("different GPUs", lambda: matmul_opt.run("best", DLPackOnly(A1), DLPackOnly(B1), out=rand(32, 32))),
        ("the stream belongs to GPU 0, the operands lie on GPU 1",
         lambda: matmul_opt.run("best", A1, B1, stream=torch.cuda.Stream(device=0))),
        ("the stream belongs to GPU 1, the operands lie on GPU 0",
         lambda: matmul_opt.run("best", A0, B0, out=rand(32, 32), beta=1.0, stream=torch.cuda.Stream(device=1))),
    ]
    with cupy.cuda.Device(1):
        b1 = cupy.asarray(B1)
    refused.append(("different GPUs", lambda: matmul_opt.run("best", cupy.asarray(A0), b1)))
    for match, call in refused:
        with pytest.raises(ValueError, match=match):
            call()
    torch.cuda.synchronize(0)
    torch.cuda.synchronize(1)
    assert torch.equal(out1, before)  # nothing was written
    for A, B in ((A0, B0), (A1, B1)):
        C = matmul_opt.run("best", A, B)
        torch.cuda.synchronize(A.device)
        assert_close("best", C, A, B)


def test_numpy_operands_run_on_the_current_gpu(on_gpu_0, rng):
    """The host path on each GPU in turn: the small mapped image and the streamed panels."""
    for device in (1, 0):
        torch.cuda.set_device(device)
        for M, N, K in ((64, 64, 64), (700, 500, 300)):
            A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
            B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
            C = matmul_opt.run("best", A, B)
            A64, B64 = A.astype(np.float64), B.astype(np.float64)
            error = relative_error(C, A64 @ B64, error_scale(A64, B64))
            assert error <= tolerance(ARITHMETIC["best"], K), f"GPU {device}, {M}x{N}x{K}: relative error {error:.3e}"
            assert torch.cuda.current_device() == device
