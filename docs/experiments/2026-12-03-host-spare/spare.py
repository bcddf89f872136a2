"""NumPy results from recycled and prepared pageable memory, against the library's pinned results: the result
allocator (matmul_opt.pinned.result_array) replaced by variants, each pattern of benchmarks/host_patterns.py in a
fresh process (GPU needed).

    python3 docs/experiments/2026-12-03-host-spare/spare.py [--sizes 4096 1024] [--rounds 2] [--torch]

Variants:
- "pinned": the library's own (pinned while under its cap; a new pinned block when no freed one waits);
- "pool": a freed result's block goes back to a bounded pool of pageable blocks and is handed out again for a
  result of its size class; a new block is populated (madvise MADV_POPULATE_WRITE, 8 threads) in the background as
  it is handed out, while the call's uploads and product run;
- "pool-spare": as "pool", and each new block of a size class also starts populating a spare block of that class
  in the background (4 threads), which the next result of the class takes when the pool has none: a result that is
  kept finds its memory mapped during the call before it.
"""
import argparse
import subprocess
import sys
from pathlib import Path

VARIANTS = ["pinned", "pool", "pool-spare"]
PATTERNS = ["reassign", "keep", "chain", "alternate"]

_ONE = r'''
import collections, ctypes, sys, weakref
from concurrent.futures import ThreadPoolExecutor
import numpy as np
variant, pattern, n, with_torch = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "torch"
if with_torch:
    import torch
from matmul_opt import pinned
from benchmarks.host_patterns import call_ms

libc = ctypes.CDLL(None, use_errno=True)
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
MADV_POPULATE_WRITE, PAGE, GRANULE = 23, 4096, 2 << 20
threads = ThreadPoolExecutor(12)
for _ in threads.map(int, range(12)):  # start the threads now, not on a call
    pass

def populate(block, parts):
    first = (block.ctypes.data + PAGE - 1) // PAGE * PAGE
    pages = (block.ctypes.data + block.nbytes - first) // PAGE
    bounds = [first + pages * i // parts * PAGE for i in range(parts + 1)]
    for i in range(parts):
        threads.submit(libc.madvise, bounds[i], bounds[i + 1] - bounds[i], MADV_POPULATE_WRITE)

def new_block(size, parts):
    block = np.empty(size, np.uint8)
    populate(block, parts)
    return block

free_blocks = collections.defaultdict(list)
spares = {}

class Owner:
    """Keeps a block for the arrays over it; the block goes back to the pool when the last of them goes."""
    def __init__(self, block, shape):
        self.__array_interface__ = {"shape": shape, "typestr": "<f4", "data": (block.ctypes.data, False), "version": 3}
        weakref.finalize(self, free_blocks[block.nbytes].append, block)

def pooled(shape):
    nbytes = shape[0] * shape[1] * 4
    if nbytes < pinned.PINNED_RESULT_MIN_BYTES:
        return np.empty(shape, np.float32)
    size = -(-nbytes // GRANULE) * GRANULE
    if free_blocks[size]:
        block = free_blocks[size].pop()
    elif size in spares:
        block = spares.pop(size)
    else:
        block = new_block(size, 8)
    if variant == "pool-spare" and size not in spares and not free_blocks[size]:
        spares[size] = new_block(size, 4)
    return np.asarray(Owner(block, shape))

if variant != "pinned":
    pinned.result_array = pooled
print(" ".join(f"{t:.2f}" for t in call_ms(pattern, n, 8)))
'''


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 1024])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--torch", action="store_true", help="also each process after import torch")
    args = parser.parse_args()
    root = Path(__file__).resolve().parents[3]
    print(f"{'round':>5} {'size':>5} {'pattern':<10} {'process':<7} {'variant':<11} {'worst':>7}  per call (ms)")
    for round_ in range(args.rounds):
        for n in args.sizes:
            for pattern in PATTERNS:
                for process in ["fresh", "torch"] if args.torch else ["fresh"]:
                    for variant in VARIANTS:
                        run = subprocess.run([sys.executable, "-c", _ONE, variant, pattern, str(n), process],
                                             capture_output=True, text=True, cwd=root)
                        label = f"{round_:>5} {n:>5} {pattern:<10} {process:<7} {variant:<11}"
                        if run.returncode != 0:
                            print(f"{label} FAILED: {run.stderr.strip().splitlines()[-1:]}", flush=True)
                            continue
                        times = [float(t) for t in run.stdout.split()]
                        print(f"{label} {max(times[1:]):7.2f}  {run.stdout.strip()}", flush=True)


if __name__ == "__main__":
    main()
