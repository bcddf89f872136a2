"""A pattern of benchmarks/host_patterns.py with the library's result blocks in transparent huge pages or not (GPU
needed).

    python3 patterns.py PATTERN N [--calls 8] [--blocks library|huge|small] [--torch]

--blocks: "library" as the library makes them; "huge": each new block at a 2 MiB boundary, marked
madvise(MADV_HUGEPAGE) before it is locked or mapped; "small": marked MADV_NOHUGEPAGE (4 KiB pages only).
Prints one JSON line: {"total": [...]} in ms per call.
"""
import argparse
import ctypes
import json
import sys

import numpy as np

HUGE = 2 << 20


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("pattern")
    parser.add_argument("n", type=int)
    parser.add_argument("--calls", type=int, default=8)
    parser.add_argument("--blocks", default="library", choices=["library", "huge", "small"])
    parser.add_argument("--torch", action="store_true")
    args = parser.parse_args()
    if args.torch:
        import torch  # noqa: F401
    from benchmarks import host_patterns
    from matmul_opt import results

    if args.blocks != "library":
        libc = ctypes.CDLL(None, use_errno=True)
        libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        advice = 14 if args.blocks == "huge" else 15  # MADV_HUGEPAGE, MADV_NOHUGEPAGE

        def new_block(size):
            memory = np.empty(size + HUGE, np.uint8)
            start = -memory.ctypes.data % HUGE
            block = memory[start:start + size]
            if libc.madvise(block.ctypes.data, size, advice) != 0:
                raise OSError(ctypes.get_errno(), "madvise")
            return block

        results._new_block = new_block
    print(json.dumps({"total": host_patterns.call_ms(args.pattern, args.n, args.calls)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
