"""One library's tensor-core kernels against cuBLAS at the issues' shapes, in one process: matmul_opt.benchmark
(CUDA events, median of repetitions after warm-up). Prints one line per shape and kernel.

    MATMUL_OPT_LIBRARY=path/to/libmatmul.so python3 variant_timing.py LABEL
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402

SHAPES = [(2048,) * 3, (4096,) * 3, (8192,) * 3, (4095, 4097, 4093), (8192, 8192, 2048)]
KERNELS = ("wgmma_tf32", "cublas_tf32", "wgmma_3xtf32", "cublas")
label = sys.argv[1]
for shape in SHAPES:
    ms = {k: matmul_opt.benchmark(k, *shape, warmup=5, repetitions=30).ms for k in KERNELS}
    tflops = {k: 2 * shape[0] * shape[1] * shape[2] / (t * 1e9) for k, t in ms.items()}
    print(f"{label:<10} {'x'.join(map(str, shape)):<15}"
          + "".join(f" {k} {ms[k]:.4f} ms {tflops[k]:6.1f}" for k in KERNELS)
          + f"  tf32/cublas_tf32 {tflops['wgmma_tf32'] / tflops['cublas_tf32']:.3f}"
          + f"  3xtf32/cublas {tflops['wgmma_3xtf32'] / tflops['cublas']:.2f}", flush=True)
