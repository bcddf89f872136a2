"""What a run() on GPU and NumPy arrays costs, piece by piece, on the GPU machine (PyTorch and CuPy needed).

    PYTHONPATH=. python3 docs/experiments/2026-12-01-call-costs/call_probe.py

Microseconds per operation (timeit, best of 5 rounds) for the operand reads, allocations and stream queries a
call makes, the library's ctypes entries, run() and the libraries' own `a @ b`; then the 4096^3 product on GPU
arrays timed three ways with CUDA events: one call on an idle GPU, one call queued behind a 5 ms spin (the GPU
busy while Python prepares the call), and ten calls back to back (benchmark()'s method)."""
import cProfile
import ctypes
import pstats
import statistics
import timeit

import numpy as np
import cupy
import torch

import matmul_opt
from matmul_opt._library import library


def us(f, number=20000):
    f()
    return min(timeit.repeat(f, number=number, repeat=5)) / number * 1e6


def per_call(f, sync, calls=2000):
    f(); sync()
    rounds = []
    for _ in range(5):
        t = timeit.default_timer()
        for _ in range(calls):
            f()
        sync()
        rounds.append((timeit.default_timer() - t) / calls * 1e6)
    return statistics.median(rounds)


rng = np.random.default_rng(1)
h = [rng.uniform(-1, 1, (64, 64)).astype(np.float32) for _ in range(2)]
ta, tb = (torch.from_numpy(x).cuda() for x in h)
ca, cb = (cupy.asarray(x) for x in h)
raw = torch._C._cuda_getCurrentRawStream
rows = {
    "torch x.shape": lambda: ta.shape,
    "torch x.stride()": lambda: ta.stride(),
    "torch x.data_ptr()": lambda: ta.data_ptr(),
    "torch x.dtype": lambda: ta.dtype,
    "torch x.device.index": lambda: ta.device.index,
    "torch x.get_device()": lambda: ta.get_device(),
    "torch x.requires_grad": lambda: ta.requires_grad,
    "torch x.is_cuda": lambda: ta.is_cuda,
    "torch.empty(shape, dtype, device)": lambda: torch.empty((64, 64), dtype=torch.float32, device=ta.device),
    "torch x.new_empty(shape)": lambda: ta.new_empty((64, 64)),
    "torch raw current stream": lambda: raw(0),
    "cupy x.data.ptr": lambda: ca.data.ptr,
    "cupy x.shape / x.strides": lambda: (ca.shape, ca.strides),
    "cupy x.device.id": lambda: ca.device.id,
    "cupy current stream ptr": lambda: cupy.cuda.get_current_stream().ptr,
    "cupy.empty(shape, float32)": lambda: cupy.empty((64, 64), dtype=cupy.float32),
}
for label, f in rows.items():
    print(f"{label:<44}{us(f):8.2f} us")

lib = library()
c = torch.empty((64, 64), device="cuda")
s = raw(0)
args = (b"best", 0, 0, 64, 64, 64, 1.0, ta.data_ptr(), 64, tb.data_ptr(), 64, 0.0, c.data_ptr(), 64, s or 1)
marker, done = ctypes.c_void_p(), ctypes.c_int()
sync = torch.cuda.synchronize
print(f"{'ctypes mm_gemm_async 64^3, back to back':<44}{per_call(lambda: lib.mm_gemm_async(*args), sync):8.2f} us")


def record_and_query():
    lib.mm_marker_record(0, s or 1, ctypes.byref(marker))
    lib.mm_marker_finished(marker, ctypes.byref(done))


print(f"{'ctypes mm_marker_record + _finished':<44}{per_call(record_and_query, sync):8.2f} us")
for label, f, sy in (("run() torch 64^3", lambda: matmul_opt.run("best", ta, tb), sync),
                     ("torch a @ b 64^3", lambda: ta @ tb, sync),
                     ("run() cupy 64^3", lambda: matmul_opt.run("best", ca, cb), cupy.cuda.runtime.deviceSynchronize),
                     ("cupy a @ b 64^3", lambda: ca @ cb, cupy.cuda.runtime.deviceSynchronize)):
    print(f"{label + ', back to back':<44}{per_call(f, sy):8.2f} us")
hargs = (b"best", 0, 0, 64, 64, 64, 1.0, h[0].ctypes.data, 64, h[1].ctypes.data, 64, 0.0,
         np.empty((64, 64), np.float32).ctypes.data, 64)
print(f"{'ctypes mm_gemm_host 64^3':<44}{us(lambda: lib.mm_gemm_host(*hargs), 3000):8.2f} us")
print(f"{'run() numpy 64^3':<44}{us(lambda: matmul_opt.run('best', *h), 3000):8.2f} us")

class _Stub:  # the library's functions as calls that do nothing: what run() costs in Python and PyTorch alone
    def __getattr__(self, name):
        return lambda *args: 0


from matmul_opt import _library  # noqa: E402

real, _library._library = _library._library, _Stub()
print(f"{'run() torch 64^3, library stubbed out':<44}{us(lambda: matmul_opt.run('best', ta, tb)):8.2f} us")
print(f"{'run() cupy 64^3, library stubbed out':<44}{us(lambda: matmul_opt.run('best', ca, cb)):8.2f} us")
print(f"{'run() numpy 64^3, library stubbed out':<44}{us(lambda: matmul_opt.run('best', *h)):8.2f} us")
_library._library = real

profile = cProfile.Profile()
profile.enable()
for _ in range(3000):
    matmul_opt.run("best", ta, tb)
sync()
profile.disable()
pstats.Stats(profile).sort_stats("tottime").print_stats(18)

big = [torch.from_numpy(rng.uniform(-1, 1, (4096, 4096)).astype(np.float32)).cuda() for _ in range(2)]
kernel_ms = matmul_opt.benchmark("best", 4096, 4096, 4096).ms
start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)


def events_ms(before=None, calls=1, reps=15):
    times = []
    for _ in range(reps):
        sync()
        if before:
            before()
        start.record()
        for _ in range(calls):
            matmul_opt.run("best", *big)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / calls)
    return statistics.median(times)


print(f"benchmark('best', 4096^3)            {kernel_ms:.4f} ms")
print(f"run() torch 4096^3, one call, idle   {events_ms():.4f} ms")
print(f"run() torch 4096^3, behind a spin    {events_ms(lambda: torch.cuda._sleep(10_000_000)):.4f} ms")
print(f"run() torch 4096^3, 10 back to back  {events_ms(calls=10):.4f} ms")
t = timeit.default_timer()
for _ in range(200):
    matmul_opt.run("best", *big)
print(f"run() torch 4096^3 enqueue only      {(timeit.default_timer() - t) / 200 * 1e6:.1f} us per call")
sync()
