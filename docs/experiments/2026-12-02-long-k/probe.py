"""Times kernels beside cuBLAS on long-K products over a small C, with each one's share of the roofline.

    python3 docs/experiments/2026-12-02-long-k/probe.py [--kernels longk skinny best cublas] [--shapes MxNxK ...]

Each shape: every kernel timed by matmul_opt.benchmark (CUDA events, median of the repetitions, device-resident
random inputs) in alternating rounds, the median of the rounds' medians printed; the floor is
max(2MNK / 66.9 TFLOPS, 4(MK + KN + MN) bytes / the HBM read bandwidth measured at the start)."""
import argparse
import statistics

import matmul_opt

PEAK_TFLOPS = 66.9
GRID = ["32x32x300000", "16x16x500000", "64x64x1048576", "1x1x1000000", "300x40x100000", "128x100x200000",
        "200x300x20000"]
HELD_OUT = ["1x1x131072", "4x4x131072", "8x8x131072", "16x16x131072", "24x24x131072", "32x32x131072",
            "48x48x131072", "64x64x131072", "5x7x200000", "20x30x100000", "1x32x400000", "32x1x400000",
            "17x17x65536", "40x40x50000", "64x16x300000", "8x8x16384", "32x32x16384", "3x29x250000", "96x96x131072"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", nargs="+", default=["longk", "skinny", "best", "cublas"])
    parser.add_argument("--shapes", nargs="+", default=GRID + HELD_OUT)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    gbps = matmul_opt.benchmark_read_bandwidth()
    print(f"HBM read {gbps:.0f} GB/s; us per kernel, median of {args.rounds} rounds; % roof = floor / time")
    print(f"{'shape':>16} {'floor':>7} " + " ".join(f"{k:>14}" for k in args.kernels))
    for shape in args.shapes:
        M, N, K = map(int, shape.split("x"))
        floor = max(2 * M * N * K / (PEAK_TFLOPS * 1e6), 4 * (M * K + K * N + M * N) / (gbps * 1e3))
        times = {k: [] for k in args.kernels}
        for _ in range(args.rounds):
            for k in args.kernels:
                times[k].append(matmul_opt.benchmark(k, M, N, K, warmup=3, repetitions=10).ms * 1e3)
        cells = []
        for k in args.kernels:
            us = statistics.median(times[k])
            cells.append(f"{us:8.1f} ({100 * floor / us:3.0f}%)")
        print(f"{shape:>16} {floor:7.1f} " + " ".join(cells), flush=True)


if __name__ == "__main__":
    main()
