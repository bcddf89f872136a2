"""best and cuBLAS fp32 on the probe's few-row shapes, same process, 3 rotated rounds (GPU needed).

    python3 bench.py [--repetitions 25]
"""
import argparse

import matmul_opt

SHAPES = [(1, 4096, 4096), (8, 4096, 4096), (11, 14336, 2496), (13, 5120, 13824), (17, 8000, 8000), (1, 1500, 9000),
          (3, 11008, 4096), (6, 6000, 5000), (4, 12000, 16384), (20, 10000, 3000), (16, 4096, 4096)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repetitions", type=int, default=25)
    args = parser.parse_args()
    kernels = ["best", "cublas"]
    for M, N, K in SHAPES:
        ms = {k: [] for k in kernels}
        for r in range(3):
            for k in kernels[r % 2:] + kernels[:r % 2]:
                ms[k].append(matmul_opt.benchmark(k, M, N, K, warmup=3, repetitions=args.repetitions).ms)
        b, c = sorted(ms["best"])[1], sorted(ms["cublas"])[1]
        print(f"{M}x{N}x{K}: best {b * 1e3:8.2f} us  cuBLAS {c * 1e3:8.2f} us  (rounds best"
              f" {' '.join(f'{x * 1e3:.1f}' for x in ms['best'])}; cuBLAS {' '.join(f'{x * 1e3:.1f}' for x in ms['cublas'])})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
