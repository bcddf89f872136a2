"""Paired, interleaved best-vs-cuBLAS timing (GPU needed):  python3 -m tools.paired_ratio [ROUNDS]

At 4096^3, 8192^3, 2048^3 and 1024^3: per round one matmul_opt.benchmark() of best and one of cublas, the order
alternating round by round, and the ratio cublas_ms / best_ms of that round; prints the median, quartiles,
min/max and the share of rounds >= 1. Pairing cancels the drift between two runs minutes apart, which moves
cuBLAS alone by as much as the two kernels differ; results/latest/paired-h200.txt is its H200 output."""
import statistics
import sys

import matmul_opt

SHAPES = [(4096,) * 3, (8192,) * 3, (2048,) * 3, (1024,) * 3]


def tflops(ms, M, N, K):
    return 2.0 * M * N * K / ms / 1e9


def paired(M, N, K, rounds):
    repetitions = 3 if M >= 8192 else 5
    for kernel in ("best", "cublas"):  # warm-up of both
        matmul_opt.benchmark(kernel, M, N, K, warmup=3, repetitions=repetitions)
    ratios, best_ms, cublas_ms = [], [], []
    for r in range(rounds):
        order = ("best", "cublas") if r % 2 == 0 else ("cublas", "best")
        ms = {k: matmul_opt.benchmark(k, M, N, K, warmup=1, repetitions=repetitions).ms for k in order}
        ratios.append(ms["cublas"] / ms["best"])
        best_ms.append(ms["best"])
        cublas_ms.append(ms["cublas"])
    q = statistics.quantiles(ratios, n=4)
    return (f"{M}x{N}x{K}: {rounds} rounds; best {tflops(statistics.median(best_ms), M, N, K):.2f} TFLOPS (median), "
            f"cublas {tflops(statistics.median(cublas_ms), M, N, K):.2f}; ratio median {statistics.median(ratios):.4f}, "
            f"quartiles {q[0]:.4f}-{q[2]:.4f}, min {min(ratios):.4f}, max {max(ratios):.4f}, "
            f">= 1.00 in {sum(x >= 1 for x in ratios)}/{rounds}")


def main(rounds=40):
    print(matmul_opt.device_info())
    for M, N, K in SHAPES:
        print(paired(M, N, K, rounds), flush=True)


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
