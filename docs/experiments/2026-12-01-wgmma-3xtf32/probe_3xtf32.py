"""wgmma_3xtf32 on the H200: accuracy against cuBLAS fp32 over K (uniform and log-uniform inputs), NaN and Inf,
and speed against cublas and cublas_tf32, in one process (issue 18's checks).

    MATMUL_OPT_LIBRARY=path/to/libmatmul.so python3 docs/experiments/2026-12-01-wgmma-3xtf32/probe_3xtf32.py \
        [--compare cublas best cublas_tf32] [--label NAME]

Accuracy: relative Frobenius error against float64 on the same fresh inputs for every kernel in the row; the
issue's bounds are 1x cuBLAS fp32's (uniform [-1, 1]) and 2x (magnitudes log-uniform over [2^-40, 2^40], random
signs). Speed: matmul_opt.benchmark (CUDA events, median of repetitions).
"""
import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402
from matmul_opt.accuracy import relative_error  # noqa: E402

KERNEL = "wgmma_3xtf32"
rng = np.random.default_rng(11)


def uniform(shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def log_uniform(shape):
    magnitude = np.exp2(rng.uniform(-40, 40, shape))
    return (magnitude * rng.choice([-1.0, 1.0], shape)).astype(np.float32)


def accuracy(draw, label, bound, compare):
    print(f"== accuracy, {label} (512 x K x 512; bound {bound}x cublas)")
    for K in (256, 1024, 4096, 16384, 65536):
        A, B = draw((512, K)), draw((K, 512))
        ref = A.astype(np.float64) @ B.astype(np.float64)
        errs = {k: relative_error(matmul_opt.run(k, A, B), ref) for k in (KERNEL, *compare)}
        ratio = errs[KERNEL] / errs["cublas"]
        print(f"K={K}: " + "  ".join(f"{k} {e:.3e}" for k, e in errs.items()) +
              f"  ratio {ratio:.3f} {'ok' if ratio <= bound else 'ABOVE BOUND'}", flush=True)


def special_values():
    print("== NaN and Inf (against NumPy's float32 product)")
    A, B = uniform((130, 70)), uniform((70, 260))
    A[3, 5], A[100, 0], B[7, 200] = np.nan, np.inf, -np.inf
    want = A @ B
    got = matmul_opt.run(KERNEL, A, B)
    same = np.array_equal(np.isnan(got), np.isnan(want)) and np.array_equal(np.isinf(got), np.isinf(want))
    print(f"NaN and Inf positions and signs match NumPy: {same and np.array_equal(np.sign(got[np.isinf(got)]), np.sign(want[np.isinf(want)]))}")


def speed(compare):
    print("== speed (TFLOPS; ratio to cublas)")
    for shape in [(2048,) * 3, (4096,) * 3, (8192,) * 3, (4095, 4097, 4093)]:
        r = {k: matmul_opt.benchmark(k, *shape, warmup=5, repetitions=20) for k in (KERNEL, *compare) if k != "best"}
        print("x".join(map(str, shape)) + ": " + "  ".join(
            f"{k} {v.ms:.3f} ms {v.gflops / 1e3:.1f} ({v.gflops / r['cublas'].gflops:.2f}x)" for k, v in r.items()),
            flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--compare", nargs="+", default=["cublas", "best", "cublas_tf32"],
                        help="kernels measured beside wgmma_3xtf32 (cublas first: the ratios are to it)")
    parser.add_argument("--label", default="", help="a name for this library in the output")
    args = parser.parse_args()
    assert args.compare[0] == "cublas", "the ratios are to cublas"
    print(matmul_opt.device_info().name, args.label, flush=True)
    special_values()
    accuracy(uniform, "uniform [-1, 1]", 1.0, args.compare)
    accuracy(log_uniform, "log-uniform magnitudes over [2^-40, 2^40]", 2.0, args.compare)
    speed(args.compare)
