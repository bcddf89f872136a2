"""best's benchmark time (matmul_opt.benchmark: CUDA events over back-to-back calls, the benchmark's layout) and
cuBLAS's on the given products, one line per product: for alternating processes of two libraries.

    MATMUL_OPT_LIBRARY=lib.so python3 ab_best.py 3001x257x5003 [...]
"""
import sys

import matmul_opt

for shape in sys.argv[1:]:
    M, N, K = (int(x) for x in shape.split("x"))
    best = matmul_opt.benchmark("best", M, N, K, warmup=5, repetitions=21).ms * 1e3
    cublas = matmul_opt.benchmark("cublas", M, N, K, warmup=5, repetitions=21).ms * 1e3
    print(f"{shape} best {best:.1f} cublas {cublas:.1f}", flush=True)
