"""wgmma_tf32 against cuBLAS TF32 at three cubes: MATMUL_OPT_LIBRARY=a build python3 kernel_alone.py. Each line
starts with MM_BAND and MM_SKIP_PREPASS, the switches of the diagnostic build of diagnostic-prepass-switches.patch
(None with the library itself, which reads neither)."""
import sys, os
sys.path.insert(0, ".")
import matmul_opt
for shape in [(2048,)*3, (4096,)*3, (8192,)*3]:
    r = matmul_opt.benchmark("wgmma_tf32", *shape, warmup=5, repetitions=20)
    c = matmul_opt.benchmark("cublas_tf32", *shape, warmup=5, repetitions=20)
    print(os.environ.get("MM_BAND"), os.environ.get("MM_SKIP_PREPASS"), "x".join(map(str, shape)), f"{r.ms:.4f} ms {r.gflops/1e3:.1f}  cublas {c.ms:.4f} ({r.gflops/c.gflops:.3f}x)", flush=True)
