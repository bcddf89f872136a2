"""Where best and cuBLAS spend a product of few output tiles (GPU needed).

    python3 probe.py times [--repetitions 20]      best and cuBLAS per shape, CUDA events (median), 3 rotated rounds
    ncu --profile-from-start off ... python3 probe.py once KERNEL   one product per shape, operands on the GPU

`once` runs every shape once as a warm-up, then again between cudaProfilerStart and cudaProfilerStop, so that
Nsight Compute (--profile-from-start off) sees only the second products' kernels, in the order of SHAPES.
The shapes are the grid's FLOP-bound shapes below 0.95x cuBLAS fp32 and held-out shapes of the same kind.
"""
import argparse
import sys

import numpy as np
import torch

import matmul_opt

SHAPES = [(385, 769, 1537), (257, 3072, 1024), (1153, 1153, 1153), (250, 1500, 3000), (128, 4096, 4096),
          (257, 6001, 777), (640, 640, 2000), (300, 1200, 1500), (5000, 150, 2500), (1537, 2561, 1025),
          (700, 1900, 2500), (96, 5000, 6000)]


def times(repetitions: int) -> None:
    kernels = ["best", "cublas"]
    for M, N, K in SHAPES:
        ms = {k: [] for k in kernels}
        for r in range(3):
            for k in kernels[r % 2:] + kernels[:r % 2]:
                ms[k].append(matmul_opt.benchmark(k, M, N, K, warmup=3, repetitions=repetitions).ms)
        b, c = min(ms["best"]), min(ms["cublas"])
        print(f"{M}x{N}x{K}: best {b * 1e3:8.1f} us  cuBLAS {c * 1e3:8.1f} us  best/cuBLAS speed {c / b:.3f}"
              f"  (rounds best {' '.join(f'{x * 1e3:.1f}' for x in ms['best'])};"
              f" cuBLAS {' '.join(f'{x * 1e3:.1f}' for x in ms['cublas'])})")


def once(kernel: str) -> None:
    rng = np.random.default_rng(0)
    operands = [(torch.from_numpy(rng.uniform(-1, 1, (M, K)).astype(np.float32)).cuda(),
                 torch.from_numpy(rng.uniform(-1, 1, (K, N)).astype(np.float32)).cuda()) for M, N, K in SHAPES]
    for a, b in operands:
        matmul_opt.run(kernel, a, b)
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    for a, b in operands:
        matmul_opt.run(kernel, a, b)
        torch.cuda.synchronize()
    torch.cuda.profiler.stop()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["times", "once"])
    parser.add_argument("kernel", nargs="?", default="best")
    parser.add_argument("--repetitions", type=int, default=20)
    args = parser.parse_args()
    if args.what == "times":
        times(args.repetitions)
    else:
        once(args.kernel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
