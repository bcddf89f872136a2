"""Times kernels on small-side products in every op combination, with each one's share of the roofline.

    MATMUL_OPT_LIBRARY=lib.so python3 docs/experiments/2026-12-02-bulk-y/probe.py [--kernels skinny best]
        [--shapes MxNxK ...] [--ops NN TN NT TT] [--label TEXT]

Operands are device-resident PyTorch tensors of fresh uniform [-1, 1] values; op T means the operand is passed as
the transposed view of a stored transpose, which the library reads as stored. Each (shape, op, kernel): 20 calls
back to back after 3 of warm-up, timed by CUDA events, mean per call (each call allocates its C, as a user's call
does, so the times include the enqueue where it is not hidden behind the previous kernel); the median of --rounds
such timings printed, with cuBLAS (torch.matmul on the same views) alongside. The floor is max(2MNK / 66.9 TFLOPS, 4(MK + KN + MN) bytes /
the HBM read bandwidth measured at the start). Each result is checked against a float64 product."""
import argparse
import statistics

import torch

import matmul_opt

PEAK_TFLOPS = 66.9
SHAPES = ["13x5120x13824", "11x14336x2500", "17x8000x8000", "9000x24x2000", "3x11008x4096", "13x9000x5000",
          "9x20000x3000", "24x7000x9000", "5x6000x8000", "6000x20x7000", "20x6000x7000", "12000x3x5000"]


def operand(rows, cols, op):
    x = torch.rand(rows, cols, device="cuda") * 2 - 1 if op == "N" else torch.rand(cols, rows, device="cuda") * 2 - 1
    return x if op == "N" else x.t()


def time_us(fn, calls=20):
    for _ in range(3):
        fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1e3 / calls


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", nargs="+", default=["skinny", "best"])
    parser.add_argument("--shapes", nargs="+", default=SHAPES)
    parser.add_argument("--ops", nargs="+", default=["NN", "TN", "NT", "TT"])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    gbps = matmul_opt.benchmark_read_bandwidth()
    names = args.kernels + ["cublas"]
    print(f"{args.label} HBM read {gbps:.0f} GB/s; us per call, median of {args.rounds} rounds; % roof = floor / time")
    print(f"{'shape':>16} {'op':>3} {'floor':>7} " + " ".join(f"{k:>14}" for k in names))
    for shape in args.shapes:
        M, N, K = map(int, shape.split("x"))
        floor = max(2 * M * N * K / (PEAK_TFLOPS * 1e6), 4 * (M * K + K * N + M * N) / (gbps * 1e3))
        for ops in args.ops:
            a, b = operand(M, K, ops[0]), operand(K, N, ops[1])
            reference = a.double() @ b.double()
            calls = {k: (lambda k=k: matmul_opt.run(k, a, b)) for k in args.kernels}
            calls["cublas"] = lambda: a @ b
            errors = {k: float((calls[k]().double() - reference).norm() / reference.norm()) for k in names}
            times = {k: statistics.median(time_us(calls[k]) for _ in range(args.rounds)) for k in names}
            cells = [f"{times[k]:8.1f} ({100 * floor / times[k]:3.0f}%)" for k in names]
            bad = [k for k in args.kernels if not errors[k] < 1e-5]
            print(f"{shape:>16} {ops:>3} {floor:7.1f} " + " ".join(cells) + (f"  ERROR {bad}" if bad else ""),
                  flush=True)


if __name__ == "__main__":
    main()
