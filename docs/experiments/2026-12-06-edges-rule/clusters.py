"""Whether a skinny edge's K slices summed in a thread block cluster are what makes some cuts lose beside the bulk:
best's benchmark time with the edges beside the bulk and after it (mm_best_edges_beside), with K slices allowed to
add up within their launch (clusters, the default) and not (mm_split_k_sums_in_launch(0): every kernel sums its
slices through split-K's workspace and a reduction kernel). Alternating within one process, best of three rounds of
matmul_opt.benchmark (median of 9 after 3 warm-ups).

    python3 clusters.py 3001x257x5003 [...]
"""
import sys

import matmul_opt
from matmul_opt import _library


def main():
    lib = _library.library()
    print("product in_launch after_us beside_us beside/after")
    for shape in sys.argv[1:]:
        M, N, K = (int(x) for x in shape.split("x"))
        for in_launch in (1, 0):
            _library.check(lib.mm_split_k_sums_in_launch(in_launch))
            times = {0: [], 1: []}
            for _ in range(3):
                for beside in (0, 1):
                    _library.check(lib.mm_best_edges_beside(beside))
                    times[beside].append(matmul_opt.benchmark("best", M, N, K, warmup=3, repetitions=9).ms * 1e3)
            after, beside = min(times[0]), min(times[1])
            print(f"{shape} {in_launch} {after:.1f} {beside:.1f} {beside / after:.3f}", flush=True)
    _library.check(lib.mm_split_k_sums_in_launch(1))
    _library.check(lib.mm_best_edges_beside(1))


if __name__ == "__main__":
    main()
