"""What page-locking costs by each route, and whether a background pin slows the calls in the foreground.

For 4, 16 and 64 MiB blocks, median of 7 (ms):
- host_alloc / free_host: cudaHostAlloc and cudaFreeHost of a new block;
- map: first touch of a fresh pageable block (np.empty + fill, one thread);
- register_mapped / unregister: cudaHostRegister and cudaHostUnregister of a block whose pages are mapped already
  (a recycled block);
- register_fresh: cudaHostRegister of a fresh block, pages not yet mapped.
Then interference: 300 synchronous 4 MiB host-to-device copies from pinned memory, timed alone and while a
background thread registers and unregisters a mapped 64 MiB block in a loop.
Run on the device: python3 register_cost.py
"""
import ctypes
import glob
import statistics
import threading
import time

import numpy as np


def load_cudart():
    for name in ["libcudart.so", "libcudart.so.13", "libcudart.so.12"]:
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    paths = sorted(glob.glob("/usr/local/cuda*/lib64/libcudart.so*")) + sorted(
        glob.glob("/opt/**/libcudart.so*", recursive=True))
    return ctypes.CDLL(paths[0])


rt = load_cudart()
rt.cudaHostAlloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_uint]
rt.cudaFreeHost.argtypes = [ctypes.c_void_p]
rt.cudaHostRegister.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint]
rt.cudaHostUnregister.argtypes = [ctypes.c_void_p]
rt.cudaMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
rt.cudaMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


def check(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: CUDA status {status}")


def ms(fn):
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def median(values):
    return f"{statistics.median(values):7.2f}"


check(rt.cudaFree(None), "cudaFree(0)")
print("size    host_alloc  free_host      map  register_mapped  unregister  register_fresh")
for mib in (4, 16, 64):
    nbytes = mib << 20
    rows = {k: [] for k in ("alloc", "free", "map", "reg", "unreg", "fresh")}
    for _ in range(7):
        p = ctypes.c_void_p()
        rows["alloc"].append(ms(lambda: check(rt.cudaHostAlloc(ctypes.byref(p), nbytes, 0), "cudaHostAlloc")))
        rows["free"].append(ms(lambda: check(rt.cudaFreeHost(p), "cudaFreeHost")))
        block = np.empty(nbytes // 4, np.float32)
        rows["map"].append(ms(lambda: block.fill(1.0)))
        address = block.ctypes.data
        rows["reg"].append(ms(lambda: check(rt.cudaHostRegister(address, nbytes, 0), "cudaHostRegister")))
        rows["unreg"].append(ms(lambda: check(rt.cudaHostUnregister(address), "cudaHostUnregister")))
        fresh = np.empty(nbytes // 4, np.float32)
        rows["fresh"].append(ms(lambda: check(rt.cudaHostRegister(fresh.ctypes.data, nbytes, 0), "register fresh")))
        check(rt.cudaHostUnregister(fresh.ctypes.data), "unregister fresh")
        del block, fresh
    print(f"{mib:3d} MiB {median(rows['alloc'])}    {median(rows['free'])}  {median(rows['map'])}"
          f"          {median(rows['reg'])}     {median(rows['unreg'])}         {median(rows['fresh'])}")

copy_bytes = 4 << 20
src = ctypes.c_void_p()
dst = ctypes.c_void_p()
check(rt.cudaHostAlloc(ctypes.byref(src), copy_bytes, 0), "cudaHostAlloc")
check(rt.cudaMalloc(ctypes.byref(dst), copy_bytes), "cudaMalloc")


def copies():
    for _ in range(300):
        check(rt.cudaMemcpy(dst, src, copy_bytes, 1), "cudaMemcpy")


stop = threading.Event()
pins = [0]


def pin_loop():
    block = np.ones((64 << 20) // 4, np.float32)
    while not stop.is_set():
        check(rt.cudaHostRegister(block.ctypes.data, block.nbytes, 0), "register")
        check(rt.cudaHostUnregister(block.ctypes.data), "unregister")
        pins[0] += 1


copies()
alone = [ms(copies) for _ in range(3)]
worker = threading.Thread(target=pin_loop)
worker.start()
time.sleep(0.05)
together = [ms(copies) for _ in range(3)]
stop.set()
worker.join()
print(f"300 x 4 MiB H2D copies: alone {median(alone)} ms; beside a register/unregister loop of 64 MiB "
      f"{median(together)} ms ({pins[0]} pins in the loop)")
