"""The cluster sum against the split-K workspace in one process, switched per product with mm_split_k_clusters
(GPU needed; torch for the path probe).

    python3 sweep.py configs [--shapes MxNxK ...]   # best forced to each pipelined tile at several slice counts
    python3 sweep.py best [--shapes ...]            # best as it chooses, and cuBLAS, on the shape grid and others

Each line: round, shape, what ran, the path the cluster-allowed product took (cluster, workspace or unsplit: a
product of torch tensors leaves the library's device pool empty only on the cluster path), and the median of
CUDA-event timings (matmul_opt.benchmark) with clusters allowed and barred, in µs; the two are measured in
alternating order, three rounds.
"""
import argparse
import itertools

from matmul_opt import benchmark, memory_held, release_memory, run
from matmul_opt._library import check, library
from matmul_opt.shape_grid import GRID
from matmul_opt.tune import AUTO_SPLITS, config_names

TARGETS = ["385x769x1537", "257x3072x1024", "1153x1153x1153", "250x1500x3000", "128x4096x4096"]
HELD_OUT = ["300x1200x1500", "257x6001x777", "640x640x2000", "48x7000x3000", "500x900x2500", "200x300x20000",
            "777x333x4000", "1000x1000x1000", "2048x2048x512", "100x11008x4096", "4096x300x4096", "300x5000x2000",
            "320x12000x1024", "700x700x700", "96x2000x6000", "450x450x9000"]
SPLITS = [AUTO_SPLITS, 2, 3, 4, 6, 8]


def path(M, N, K):
    """Which path a product with clusters allowed takes, from the device pool it leaves."""
    import torch
    a, b = torch.rand(M, K, device="cuda"), torch.rand(K, N, device="cuda")
    release_memory()
    run("best", a, b)
    torch.cuda.synchronize()
    return "cluster" if memory_held()["device_pooled"] == 0 else "workspace/unsplit"


def timed(lib, shape, order):
    M, N, K = shape
    ms = {}
    for allowed in order:
        check(lib.mm_split_k_clusters(allowed))
        ms[allowed] = benchmark("best", M, N, K, warmup=3, repetitions=20).ms * 1e3
    check(lib.mm_split_k_clusters(1))
    return ms


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["configs", "best"])
    parser.add_argument("--shapes", nargs="*")
    args = parser.parse_args()
    lib = library()
    try:
        if args.mode == "configs":
            shapes = args.shapes or TARGETS + HELD_OUT
            configs = [(c, n) for c, n in enumerate(config_names()) if n.startswith("pipelined ")]
            for round_, s, (config, name), splits in itertools.product(range(3), shapes, configs, SPLITS):
                shape = tuple(map(int, s.split("x")))
                check(lib.mm_best_force(config, splits))
                taken = path(*shape) if round_ == 0 else "-"
                ms = timed(lib, shape, (1, 0) if round_ % 2 == 0 else (0, 1))
                print(f"{round_} {s} {name.replace(' ', '_')} s{splits or 'rule'} {taken} {ms[1]:.2f} {ms[0]:.2f}",
                      flush=True)
        else:
            shapes = args.shapes or [g.name for g in GRID] + HELD_OUT
            for round_, s in itertools.product(range(3), shapes):
                shape = tuple(map(int, s.split("x")))
                taken = path(*shape) if round_ == 0 else "-"
                ms = timed(lib, shape, (1, 0) if round_ % 2 == 0 else (0, 1))
                cublas = benchmark("cublas", *shape, warmup=3, repetitions=20).ms * 1e3
                print(f"{round_} {s} best {taken} {ms[1]:.2f} {ms[0]:.2f} cublas {cublas:.2f}", flush=True)
    finally:
        check(lib.mm_best_force(-1, 1))
        check(lib.mm_split_k_clusters(1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
