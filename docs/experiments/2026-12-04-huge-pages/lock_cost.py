"""What a new result block costs to map and to page-lock, in 4 KiB pages and in transparent huge pages (GPU needed).

    python3 lock_cost.py WAY [--sizes 4 16 64] [--blocks 10]

For each size (MiB), `--blocks` new blocks are made one after another and kept alive (as a script that keeps its
results does), each locked with cudaHostRegister (which maps the pages it finds unmapped as it locks them); per block
it times the steps, ms. WAY says where the memory comes from:
- "default": NumPy's memory at a page boundary, the library's way (NumPy itself asks for transparent huge pages on
  arrays of 4 MiB or more, madvise MADV_HUGEPAGE, over the 2 MiB-aligned part);
- "small": the same, marked MADV_NOHUGEPAGE (4 KiB pages only);
- "huge": memory at a 2 MiB boundary, all of it marked MADV_HUGEPAGE;
and WAY-populated maps the pages first (madvise MADV_POPULATE_WRITE, one thread), then locks them.
It prints the system's transparent-huge-page settings, NumPy's version and how much of the blocks the kernel gave
huge pages (AnonHugePages of /proc/self/smaps_rollup before and after). One JSON line per size: medians and totals.
"""
import argparse
import ctypes
import json
import statistics
import sys
import time

import numpy as np

PAGE = 4096
HUGE = 2 << 20
MADV_HUGEPAGE = 14
MADV_NOHUGEPAGE = 15
MADV_POPULATE_WRITE = 23


def anon_huge_kib() -> int:
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("AnonHugePages:"):
                return int(line.split()[1])
    return -1


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("way", choices=[w + p for w in ("default", "small", "huge") for p in ("", "-populated")])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 16, 64])
    parser.add_argument("--blocks", type=int, default=10)
    args = parser.parse_args()
    for name in ("enabled", "defrag", "khugepaged/defrag"):
        try:
            with open(f"/sys/kernel/mm/transparent_hugepage/{name}") as f:
                print(f"thp {name}: {f.read().strip()}")
        except OSError as error:
            print(f"thp {name}: {error}")
    print(f"numpy {np.__version__}")

    from matmul_opt._library import check, library
    lib = library()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    warm = np.empty(2 * PAGE, np.uint8)  # CUDA started before the first timed block
    page = warm.ctypes.data + (-warm.ctypes.data % PAGE)
    check(lib.mm_host_register(page, PAGE))
    check(lib.mm_host_unregister(page))

    way = args.way
    huge = way.startswith("huge")
    align = HUGE if huge else PAGE
    for mib in args.sizes:
        size = mib << 20
        kept, steps = [], {"advise": [], "populate": [], "lock": [], "total": []}
        before = anon_huge_kib()
        for _ in range(args.blocks):
            t0 = time.perf_counter()
            memory = np.empty(size + align, np.uint8)
            start = memory.ctypes.data + (-memory.ctypes.data % align)
            t1 = time.perf_counter()
            if huge or way.startswith("small"):
                libc.madvise(start, size, MADV_HUGEPAGE if huge else MADV_NOHUGEPAGE)
            t2 = time.perf_counter()
            if way.endswith("populated"):
                libc.madvise(start, size, MADV_POPULATE_WRITE)
            t3 = time.perf_counter()
            check(lib.mm_host_register(start, size))
            t4 = time.perf_counter()
            kept.append((memory, start))
            steps["advise"].append((t2 - t1) * 1e3)
            steps["populate"].append((t3 - t2) * 1e3)
            steps["lock"].append((t4 - t3) * 1e3)
            steps["total"].append((t4 - t0) * 1e3)
        after = anon_huge_kib()
        for _, start in kept:
            check(lib.mm_host_unregister(start))
        print(json.dumps({"mib": mib, "way": way, "huge_kib_gained": after - before,
                          "median_ms": {k: round(statistics.median(v), 3) for k, v in steps.items()},
                          "total_ms": [round(x, 3) for x in steps["total"]]}))
        del kept
    return 0


if __name__ == "__main__":
    sys.exit(main())
