"""Errors of the longk tensor-core rungs and the fp32-accurate choice against float64, beside cuBLAS fp32's, on
n x K x n products of the accuracy contract's two input kinds (tools/fp32_accuracy.py). GPU needed.

    python3 accuracy.py [--kernels longk_3xtf32,best_fp32_accurate] [--sides 64,256]
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tools.fp32_accuracy import log_uniform, sweep_row, uniform  # noqa: E402

KS = {16: [16384, 262144, 1048576], 64: [16384, 65536, 262144, 1048576], 256: [16384, 65536, 262144]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", default="longk_3xtf32,best_fp32_accurate")
    parser.add_argument("--sides", default="16,64,256")
    args = parser.parse_args()
    for kernel in args.kernels.split(","):
        for side in map(int, args.sides.split(",")):
            for draw in (uniform, log_uniform):
                print(kernel, sweep_row(kernel, draw, side, seed=side, ks=KS[side]), flush=True)


if __name__ == "__main__":
    main()
