"""best and cuBLAS fp32 on tall products with a few columns (A and B stored row-major: the skinny kernel's small
operand Y = B^T lies along its small side), in one process, 3 rotated rounds; run once per library build
(MATMUL_OPT_LIBRARY) in alternating processes (GPU needed).

    python3 bench.py [--repetitions 25] [--label NAME] [--shapes MxNxK ...]
"""
import argparse

import matmul_opt

# The grid's 9000x24x2000, shapes of the same kind nobody tuned to (17 to 24 columns, and fewer where the large
# side is wide enough for the bulk mainloop), and two controls whose Y is stored along K (not changed).
SHAPES = [(9000, 24, 2000), (6000, 20, 7000), (12000, 18, 3000), (20000, 22, 1500), (5000, 24, 9000),
          (30000, 12, 2000), (16000, 8, 4096), (4096, 24, 4096), (17, 8000, 8000), (13, 5120, 13824)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repetitions", type=int, default=25)
    parser.add_argument("--label", default="")
    parser.add_argument("--shapes", nargs="*", default=[f"{M}x{N}x{K}" for M, N, K in SHAPES])
    args = parser.parse_args()
    kernels = ["best", "cublas"]
    for M, N, K in (map(int, shape.split("x")) for shape in args.shapes):
        ms = {k: [] for k in kernels}
        for r in range(3):
            for k in kernels[r % 2:] + kernels[:r % 2]:
                ms[k].append(matmul_opt.benchmark(k, M, N, K, warmup=3, repetitions=args.repetitions).ms)
        b, c = sorted(ms["best"])[1], sorted(ms["cublas"])[1]
        print(f"{args.label} {M}x{N}x{K} best_us {b * 1e3:.2f} cublas_us {c * 1e3:.2f} ratio {c / b:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
