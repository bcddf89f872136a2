import sys, numpy as np
sys.path.insert(0, ".")
import matmul_opt
from matmul_opt.accuracy import relative_error, error_scale
print(matmul_opt.device_info().name)
for shape in [(2048,)*3, (4096,)*3, (8192,)*3, (4095, 4097, 4093)]:
    r = {k: matmul_opt.benchmark(k, *shape) for k in ("mma_tf32", "cublas_tf32", "best")}
    print("x".join(map(str, shape)), "  ".join(f"{k} {v.ms:.3f} ms {v.gflops/1e3:.1f} TFLOPS" for k, v in r.items()), flush=True)
rng = np.random.default_rng(1)
for K in (256, 4096, 65536):
    A = rng.uniform(-1, 1, (512, K)).astype(np.float32); B = rng.uniform(-1, 1, (K, 512)).astype(np.float32)
    ref = A.astype(np.float64) @ B.astype(np.float64)
    errs = {k: relative_error(matmul_opt.run(k, A, B), ref) for k in ("mma_tf32", "cublas_tf32", "cublas")}
    print(f"K={K}", "  ".join(f"{k} {e:.3e}" for k, e in errs.items()), f"ratio {errs['mma_tf32']/errs['cublas_tf32']:.3f}", flush=True)
