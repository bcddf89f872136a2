"""Fresh pageable results in transparent huge pages: a kept result needs new memory, and mapping it 4 KiB at a time
costs more than the call (docs/experiments/2026-12-02-host-populate.md). Here a result's memory is an anonymous
mapping aligned to 2 MiB and advised MADV_HUGEPAGE, so the kernel maps and zeroes it 2 MiB at a time; its pages are
mapped by madvise(MADV_POPULATE_WRITE) on 8 threads, either waited for before the call ("huge") or left running
while the call's uploads and product run ("huge-populate"); against the library's pinned results ("pinned").
GPU needed.

    python3 docs/experiments/2026-12-02-host-hugepages/hugepages.py [--sizes 4096 1024]

First the machine's THP setting and what mapping 64 MiB costs each way, then each pattern of
benchmarks/host_patterns.py in a fresh process per variant (8 calls; the worst after the first is the figure).
"""
import argparse
import subprocess
import sys
from pathlib import Path

VARIANTS = ["pinned", "huge", "huge-populate"]
PATTERNS = ["reassign", "keep", "chain", "alternate"]

_COMMON = r'''
import ctypes, mmap, time
from concurrent.futures import ThreadPoolExecutor
import numpy as np
libc = ctypes.CDLL(None, use_errno=True)
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
MADV_POPULATE_WRITE, HUGE = 23, 2 << 20
threads = ThreadPoolExecutor(8)

def huge_array(shape, populate=True, wait=True, parts=8):
    """A float32 array over a fresh anonymous mapping aligned to 2 MiB, advised MADV_HUGEPAGE; its pages mapped by
    `parts` threads (waited for where wait)."""
    nbytes = int(np.prod(shape)) * 4
    size = (nbytes + HUGE - 1) // HUGE * HUGE
    m = mmap.mmap(-1, size + HUGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(m))
    offset = (-base) % HUGE
    m.madvise(mmap.MADV_HUGEPAGE, offset, size)
    a = np.frombuffer(m, np.float32, int(np.prod(shape)), offset).reshape(shape)
    if populate:
        start = base + offset
        futures = [threads.submit(libc.madvise, start + size * i // parts // HUGE * HUGE,
                                  size * (i + 1) // parts // HUGE * HUGE - size * i // parts // HUGE * HUGE,
                                  MADV_POPULATE_WRITE) for i in range(parts)]
        if wait:
            assert [f.result() for f in futures] == [0] * parts, ctypes.get_errno()
    return a
'''

_COST = _COMMON + r'''
print("THP:", open("/sys/kernel/mm/transparent_hugepage/enabled").read().strip(),
      "| defrag:", open("/sys/kernel/mm/transparent_hugepage/defrag").read().strip())
for parts in (1, 4, 8):
    times = []
    for _ in range(5):
        start = time.perf_counter()
        a = huge_array((4096, 4096), parts=parts)
        times.append((time.perf_counter() - start) * 1e3)
    print(f"huge 64 MiB, populated by {parts} threads: " + " ".join(f"{t:.2f}" for t in times) + " ms")
huge = sum(int(l.split()[1]) for l in open("/proc/self/smaps") if l.startswith("AnonHugePages:"))
print(f"AnonHugePages of this process: {huge} kB")
times = []
for _ in range(5):
    start = time.perf_counter()
    a = huge_array((4096, 4096), populate=False)
    a[::512] = 0
    times.append((time.perf_counter() - start) * 1e3)
print("huge 64 MiB, touched from NumPy on 1 thread: " + " ".join(f"{t:.2f}" for t in times) + " ms")
'''

_ONE = _COMMON + r'''
import sys
from matmul_opt import pinned
from benchmarks.host_patterns import call_ms

variant, pattern, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
if variant != "pinned":
    wait = variant == "huge"
    pinned.result_array = lambda shape: (huge_array(shape, wait=wait) if shape[0] * shape[1] * 4 >=
                                         pinned.PINNED_RESULT_MIN_BYTES else np.empty(shape, np.float32))
print(" ".join(f"{t:.2f}" for t in call_ms(pattern, n, 8)))
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 1024])
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[3]
    cost = subprocess.run([sys.executable, "-c", _COST], capture_output=True, text=True, cwd=root)
    print(cost.stdout, cost.stderr[-2000:], flush=True)
    print(f"{'size':>5} {'pattern':<10} {'variant':<14} {'worst':>7}  per call (ms)", flush=True)
    for n in args.sizes:
        for pattern in PATTERNS:
            for variant in VARIANTS:
                run = subprocess.run([sys.executable, "-c", _ONE, variant, pattern, str(n)], capture_output=True,
                                     text=True, cwd=root)
                if run.returncode != 0:
                    print(f"{n:>5} {pattern:<10} {variant:<14} FAILED: {run.stderr.strip().splitlines()[-1]}")
                    continue
                times = [float(t) for t in run.stdout.split()]
                print(f"{n:>5} {pattern:<10} {variant:<14} {max(times[1:]):7.2f}  {run.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
