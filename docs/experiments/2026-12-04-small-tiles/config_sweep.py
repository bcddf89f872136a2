"""Every configuration of best forced (the split-K rule's slices) on a few shapes, one line per configuration and
shape, median of CUDA-event timings; run once per library build (MATMUL_OPT_LIBRARY) in alternating processes (GPU
needed).

    python3 config_sweep.py --label NAME [--shapes MxNxK ...]
"""
import argparse

from matmul_opt import benchmark
from matmul_opt._library import check, library
from matmul_opt.tune import AUTO_SPLITS, config_names

SHAPES = ["385x769x1537", "1153x1153x1153", "2048x2048x2048", "6145x3073x515", "300x28672x4096"]
SKIP = ("skinny", "shortk", "longk")  # not warp-tiled


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", default="")
    parser.add_argument("--shapes", nargs="*", default=SHAPES)
    parser.add_argument("--repetitions", type=int, default=10)
    args = parser.parse_args()
    lib = library()
    try:
        for shape in args.shapes:
            M, N, K = map(int, shape.split("x"))
            for index, name in enumerate(config_names()):
                if name.startswith(SKIP):
                    continue
                check(lib.mm_best_force(index, AUTO_SPLITS))
                ms = benchmark("best", M, N, K, warmup=2, repetitions=args.repetitions).ms
                print(f"{args.label} {shape} {name.replace(' ', '_')} {ms * 1e3:.2f}", flush=True)
    finally:
        check(lib.mm_best_force(-1, 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
