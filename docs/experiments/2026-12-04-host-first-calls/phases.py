"""Where a NumPy call's milliseconds go, call by call, for a pattern of benchmarks/host_patterns.py (GPU needed).

    python3 phases.py PATTERN N [--calls 8] [--policy library|pageable|populated] [--torch] [--larger-factor F]

Each call is split into the result's memory (results.result_array) and the rest (the host entry and Python). With
--policy the result's memory comes another way: "pageable" a plain np.empty (the host path stages it), "populated"
np.empty whose pages 4 threads map first (madvise MADV_POPULATE_WRITE), timed inside the result's share.
--larger-factor sets results.LARGER_BLOCK_FACTOR (the largest free block a result may take, in multiples of its size).
Prints one JSON line: {"total": [...], "result": [...]} in ms.
"""
import argparse
import ctypes
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

PAGE = 4096


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("pattern")
    parser.add_argument("n", type=int)
    parser.add_argument("--calls", type=int, default=8)
    parser.add_argument("--policy", default="library", choices=["library", "pageable", "populated"])
    parser.add_argument("--torch", action="store_true")
    parser.add_argument("--larger-factor", type=int, help="results.LARGER_BLOCK_FACTOR for this process (1: a result "
                        "takes free blocks of its own size only)")
    args = parser.parse_args()
    if args.torch:
        import torch  # noqa: F401
    from benchmarks import host_patterns
    from matmul_opt import results
    if args.larger_factor is not None:
        results.LARGER_BLOCK_FACTOR = args.larger_factor

    spent = []
    original = results.result_array
    libc = ctypes.CDLL(None, use_errno=True)
    libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    workers = ThreadPoolExecutor(4)

    def populated(shape):
        block = np.empty(shape[0] * shape[1] * 4 + PAGE, np.uint8)
        start = -block.ctypes.data % PAGE
        usable = (block.nbytes - start) // PAGE * PAGE
        base = block.ctypes.data + start
        pieces = [(base + usable * i // 4 // PAGE * PAGE, base + usable * (i + 1) // 4 // PAGE * PAGE) for i in range(4)]
        list(workers.map(lambda p: libc.madvise(p[0], p[1] - p[0], 23), pieces))
        return block[start:start + shape[0] * shape[1] * 4].view(np.float32).reshape(shape)

    policy = {"library": original, "pageable": lambda shape: np.empty(shape, np.float32), "populated": populated}[args.policy]

    def timed(shape):
        t = time.perf_counter()
        r = policy(shape)
        spent.append((time.perf_counter() - t) * 1e3)
        return r

    results.result_array = timed
    total = host_patterns.call_ms(args.pattern, args.n, args.calls)
    print(json.dumps({"total": total, "result": spent}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
