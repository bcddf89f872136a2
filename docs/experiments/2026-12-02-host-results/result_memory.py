"""Where run()'s NumPy results should live when scripts keep them: the result allocator (matmul_opt.pinned's
result_array) replaced by variants, each pattern of benchmarks/host_patterns.py in a fresh process (GPU needed).

    python3 docs/experiments/2026-12-02-host-results/result_memory.py [--sizes 4096 1024]

Variants: "pinned" (the library's own: pinned while under its cap, a new pinned block when no freed one waits);
"pageable" (a new NumPy array, its pages touched first by 8 threads, one element per 4 KiB page); "recycled-pinned"
(a freed pinned block when one of the size waits, else as "pageable"); "pool" (freed results' buffers kept in a
bounded pool of pageable blocks and handed out again, new ones touched by 8 threads as "pageable").
"""
import argparse
import subprocess
import sys
from pathlib import Path

VARIANTS = ["pinned", "pageable", "recycled-pinned", "pool"]
PATTERNS = ["reassign", "keep", "chain", "alternate"]

_ONE = r'''
import collections, sys, threading, weakref
from concurrent.futures import ThreadPoolExecutor
import numpy as np
from matmul_opt import pinned
from benchmarks.host_patterns import call_ms

variant, pattern, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
threads = ThreadPoolExecutor(8)
PAGE = 1024  # float32 elements per 4 KiB page

def touched(shape):
    a = np.empty(shape, np.float32)
    flat = a.reshape(-1)
    bounds = [flat.size * i // 8 for i in range(9)]
    def touch(i):
        flat[bounds[i]:bounds[i + 1]:PAGE] = 0
    list(threads.map(touch, range(8)))
    return a

freed = collections.Counter()  # pinned result blocks freed, by bytes
original_free = pinned._free
def counting_free(host_free, pointer, nbytes):
    original_free(host_free, pointer, nbytes)
    freed[nbytes] += 1
pinned._free = counting_free

free_blocks = collections.defaultdict(list)
def pooled(shape):
    nbytes = shape[0] * shape[1] * 4
    block = free_blocks[nbytes].pop() if free_blocks[nbytes] else touched((nbytes // 4,))
    result = block.reshape(shape)[...]  # a view: the block goes back to the pool when the view dies
    weakref.finalize(result, free_blocks[nbytes].append, block)
    return result

def recycled_pinned(shape):
    nbytes = shape[0] * shape[1] * 4
    if nbytes >= pinned.PINNED_RESULT_MIN_BYTES and freed[nbytes] > 0:
        freed[nbytes] -= 1
        return pinned.empty_pinned(shape)
    return touched(shape) if nbytes >= pinned.PINNED_RESULT_MIN_BYTES else np.empty(shape, np.float32)

if variant == "pageable":
    pinned.result_array = lambda shape: touched(shape)
elif variant == "recycled-pinned":
    pinned.result_array = recycled_pinned
elif variant == "pool":
    pinned.result_array = pooled
import matmul_opt.api
matmul_opt.api.pinned = pinned
print(" ".join(f"{t:.2f}" for t in call_ms(pattern, n, 8)))
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 1024])
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[3]
    print(f"{'size':>5} {'pattern':<10} {'variant':<16} {'worst':>7}  per call (ms)")
    for n in args.sizes:
        for pattern in PATTERNS:
            for variant in VARIANTS:
                run = subprocess.run([sys.executable, "-c", _ONE, variant, pattern, str(n)], capture_output=True,
                                     text=True, cwd=root, timeout=300)
                if run.returncode:
                    print(f"{n:>5} {pattern:<10} {variant:<16} failed: {run.stderr.strip().splitlines()[-1:]}")
                    continue
                times = [float(t) for t in run.stdout.split()]
                print(f"{n:>5} {pattern:<10} {variant:<16} {max(times[1:]):7.2f}  {' '.join(f'{t:.1f}' for t in times)}",
                      flush=True)


if __name__ == "__main__":
    main()
