"""Fresh pageable results whose pages the kernel maps while the call runs: madvise(MADV_POPULATE_WRITE) over the new
array's pages by 8 threads, started as the result is allocated (before the call's uploads), against the library's
pinned results. MADV_POPULATE_WRITE maps and zeroes pages without writing to them, so it may run while the call's
drain writes the same pages. GPU needed.

    python3 docs/experiments/2026-12-02-host-populate/populate.py [--sizes 4096 1024]

First the cost of populating 64 MiB by 1 to 16 threads (and of touching one element per page from NumPy), then
each pattern of benchmarks/host_patterns.py in a fresh process per variant: "pinned" (the library's result_array),
"populate" (a new NumPy array, populated in the background), "recycled-populate" (a freed pinned block of the size
where one waits, else as "populate").
"""
import argparse
import subprocess
import sys
from pathlib import Path

VARIANTS = ["pinned", "populate", "recycled-populate"]
PATTERNS = ["reassign", "keep", "chain", "alternate"]

_COMMON = r'''
import collections, ctypes, time
from concurrent.futures import ThreadPoolExecutor
import numpy as np
libc = ctypes.CDLL(None, use_errno=True)
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
MADV_POPULATE_WRITE, PAGE = 23, 4096
threads = ThreadPoolExecutor(16)

def populate(a, parts=8):
    """Futures of madvise over the whole pages of a, in `parts` pieces."""
    first = (a.ctypes.data + PAGE - 1) // PAGE * PAGE
    pages = (a.ctypes.data + a.nbytes - first) // PAGE
    bounds = [first + pages * i // parts * PAGE for i in range(parts + 1)]
    return [threads.submit(libc.madvise, bounds[i], bounds[i + 1] - bounds[i], MADV_POPULATE_WRITE)
            for i in range(parts)]
'''

_COST = _COMMON + r'''
for parts in (1, 2, 4, 8, 16):
    times = []
    for _ in range(5):
        a = np.empty(16 << 20, np.float32)
        start = time.perf_counter()
        codes = [f.result() for f in populate(a, parts)]
        times.append((time.perf_counter() - start) * 1e3)
        assert codes == [0] * parts, (codes, ctypes.get_errno())
    print(f"populate 64 MiB, {parts:2d} threads: " + " ".join(f"{t:.2f}" for t in times) + " ms")
times = []
for _ in range(5):
    a = np.empty(16 << 20, np.float32)
    start = time.perf_counter()
    a[::1024] = 0
    times.append((time.perf_counter() - start) * 1e3)
print("touch 64 MiB from NumPy, 1 thread: " + " ".join(f"{t:.2f}" for t in times) + " ms")
'''

_ONE = _COMMON + r'''
import sys
from matmul_opt import pinned
from benchmarks.host_patterns import call_ms

variant, pattern, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
freed = collections.Counter()  # pinned result blocks freed, by bytes
original_free = pinned._free
def counting_free(host_free, pointer, nbytes):
    original_free(host_free, pointer, nbytes)
    freed[nbytes] += 1
pinned._free = counting_free

def populated(shape):
    a = np.empty(shape, np.float32)
    if a.nbytes >= pinned.PINNED_RESULT_MIN_BYTES:
        populate(a)
    return a

def recycled_populated(shape):
    nbytes = shape[0] * shape[1] * 4
    if nbytes >= pinned.PINNED_RESULT_MIN_BYTES and freed[nbytes] > 0:
        freed[nbytes] -= 1
        return pinned.empty_pinned(shape)
    return populated(shape)

if variant == "populate":
    pinned.result_array = populated
elif variant == "recycled-populate":
    pinned.result_array = recycled_populated
print(" ".join(f"{t:.2f}" for t in call_ms(pattern, n, 8)))
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 1024])
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[3]
    print(subprocess.run([sys.executable, "-c", _COST], capture_output=True, text=True, cwd=root).stdout, flush=True)
    print(f"{'size':>5} {'pattern':<10} {'variant':<18} {'worst':>7}  per call (ms)", flush=True)
    for n in args.sizes:
        for pattern in PATTERNS:
            for variant in VARIANTS:
                run = subprocess.run([sys.executable, "-c", _ONE, variant, pattern, str(n)], capture_output=True,
                                     text=True, cwd=root)
                if run.returncode != 0:
                    print(f"{n:>5} {pattern:<10} {variant:<18} FAILED: {run.stderr.strip().splitlines()[-1]}")
                    continue
                times = [float(t) for t in run.stdout.split()]
                print(f"{n:>5} {pattern:<10} {variant:<18} {max(times[1:]):7.2f}  {run.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
