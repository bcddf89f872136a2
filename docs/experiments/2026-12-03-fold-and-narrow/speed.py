"""Median times of kernels on a list of shapes, from the library that MATMUL_OPT_LIBRARY names, as JSON lines; the
call scripts run it against each variant in alternating processes.

    python3 docs/experiments/2026-12-03-fold-and-narrow/speed.py LABEL KERNEL[,KERNEL...] MxNxK...
"""
import json
import sys
import time

import matmul_opt


def main() -> int:
    label, kernels, shapes = sys.argv[1], sys.argv[2].split(","), sys.argv[3:]
    for shape in shapes:
        M, N, K = (int(x) for x in shape.split("x"))
        for kernel in kernels:
            time.sleep(0.1)
            ms = matmul_opt.benchmark(kernel, M, N, K, warmup=3, repetitions=10).ms
            print(json.dumps({"label": label, "kernel": kernel, "shape": shape, "ms": ms}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
