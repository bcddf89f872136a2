"""Every configuration of best, at several forced K-slice counts, on the grid's FLOP-bound shapes below 0.95x cuBLAS
fp32 and on held-out shapes of the same sizes, beside best as it chooses and cuBLAS (GPU needed).

    python3 sweep.py [--repetitions 10] [--json out.json]

Per shape: best's and cuBLAS's times (median of the repetitions, CUDA events, after warm-up), and the five fastest
(configuration, slices) pairs with their ratio to cuBLAS. Slices 0 are the split-K rule's own count. A forced
configuration that cannot run the shape runs its fallback, as best would.
"""
import argparse
import json

import matmul_opt
from matmul_opt import _library
from matmul_opt.tune import config_names

SHAPES = [(128, 4096, 4096), (250, 1500, 3000), (2048, 11008, 4096), (257, 3072, 1024), (385, 769, 1537),
          (1153, 1153, 1153),
          (1537, 2561, 1025), (257, 6001, 777), (700, 8192, 3072), (48, 7000, 3000), (5000, 150, 2500),
          (640, 640, 2000), (300, 1200, 1500), (1800, 900, 1800)]
SPLITS = (0, 1, 2, 3, 4, 6, 8)


def timed(kernel, M, N, K, repetitions):
    return matmul_opt.benchmark(kernel, M, N, K, warmup=3, repetitions=repetitions).ms


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--json")
    args = parser.parse_args()
    lib = _library.library()
    names = config_names()
    rows = []
    for M, N, K in SHAPES:
        _library.check(lib.mm_best_force(-1, 1))
        best = timed("best", M, N, K, args.repetitions)
        cublas = timed("cublas", M, N, K, args.repetitions)
        forced = {}
        for config, name in enumerate(names):
            for splits in SPLITS:
                _library.check(lib.mm_best_force(config, splits))
                forced[f"{name} / {splits}"] = timed("best", M, N, K, args.repetitions)
        _library.check(lib.mm_best_force(-1, 1))
        best_again = timed("best", M, N, K, args.repetitions)
        cublas_again = timed("cublas", M, N, K, args.repetitions)
        ranked = sorted(forced.items(), key=lambda kv: kv[1])[:5]
        print(f"{M}x{N}x{K}: best {best:.4f} / {best_again:.4f} ms, cuBLAS {cublas:.4f} / {cublas_again:.4f} ms "
              f"(best {min(cublas, cublas_again) / min(best, best_again):.2f}x)")
        for name, ms in ranked:
            print(f"    {name:<32}{ms:.4f} ms  {min(cublas, cublas_again) / ms:.2f}x cuBLAS")
        rows.append({"shape": [M, N, K], "best": [best, best_again], "cublas": [cublas, cublas_again],
                     "forced": forced})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
