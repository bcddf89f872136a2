"""How long the GPU must rest after heavy tensor-core work before a kernel's timing no longer depends on it, and how
a kernel's figure settles as it runs back to back for seconds. GPU needed.

    python3 recovery.py OUT_DIR      (nvidia-smi samples go to OUT_DIR/clocks.csv)

Part 1: 4 s of cublas_tf32 at 8192^3 (the load), a rest of R seconds, then wgmma_3xtf32 timed as the report times it
(matmul_opt.benchmark, 3 warm-up rounds, median of 10) at 4096^3 and 8192^3, for R from 0 to 8 s.
Part 2: after an 8 s rest, wgmma_3xtf32 and cublas_tf32 timed after D seconds of warm-up launches of themselves
(benchmark()'s warm-up count set so that the warm-up lasts about D seconds), D = 0 (3 rounds), 1, 3 and 6.
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT)]
import matmul_opt  # noqa: E402
from tools.clock_trace import clock_trace  # noqa: E402


def single_ms(kernel, n):
    return matmul_opt.benchmark(kernel, n, n, n, warmup=1, repetitions=3).ms


def load(seconds):
    matmul_opt.benchmark("cublas_tf32", 8192, 8192, 8192, warmup=int(seconds * 1e3 / single_ms("cublas_tf32", 8192)),
                         repetitions=1)


def tflops(kernel, n, warmup=3):
    return 2 * n**3 / (matmul_opt.benchmark(kernel, n, n, n, warmup=warmup, repetitions=10).ms * 1e9)


with clock_trace(Path(sys.argv[1]) / "clocks.csv") as log:
    for n in (4096, 8192):
        for rest in (0, 0.25, 0.5, 1, 2, 4, 8):
            load(4)
            time.sleep(rest)
            log(f"{n}^3 wgmma_3xtf32 {tflops('wgmma_3xtf32', n):6.1f} TFLOPS, rest {rest} s after 4 s of "
                "cublas_tf32")

    for kernel in ("wgmma_3xtf32", "cublas_tf32"):
        for n in (4096, 8192):
            once = single_ms(kernel, n)
            for seconds in (0, 1, 3, 6):
                time.sleep(8)
                warmup = max(3, int(seconds * 1e3 / once))
                log(f"{n}^3 {kernel} {tflops(kernel, n, warmup):6.1f} TFLOPS, after {warmup} warm-up launches "
                    f"(about {seconds} s), rested 8 s before")
