"""wgmma_3xtf32 at 4096^3 and 8192^3 timed from a rested GPU and right after seconds of other heavy kernels, with
the SM clock, power and temperature sampled, to see how much of the report's figure (kernels timed one after
another) against asv's (each in its own process) is the GPU's power state. GPU needed.

    python3 power_state.py OUT_DIR      (nvidia-smi samples go to OUT_DIR/clocks.csv)
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT)]
import matmul_opt  # noqa: E402
from tools.clock_trace import clock_trace  # noqa: E402


def heat(kernel, n, seconds):
    end = time.time() + seconds
    while time.time() < end:
        matmul_opt.benchmark(kernel, n, n, n, warmup=0, repetitions=5)


def tflops(kernel, n):
    ms = matmul_opt.benchmark(kernel, n, n, n, warmup=3, repetitions=10).ms
    return 2 * n**3 / (ms * 1e9)


with clock_trace(Path(sys.argv[1]) / "clocks.csv") as log:
    for n in (8192, 4096):
        for before, label in ((None, "rested 5 s"), ("cublas_tf32", "after 5 s of cublas_tf32"),
                              ("best", "after 5 s of best (fp32)"), ("wgmma_3xtf32", "after 5 s of itself")):
            if before is None:
                time.sleep(5)
            else:
                heat(before, n, 5)
            log(f"{n}^3 wgmma_3xtf32 {tflops('wgmma_3xtf32', n):6.1f} TFLOPS, {label}")
        time.sleep(5)
        log(f"{n}^3 cublas_tf32 {tflops('cublas_tf32', n):6.1f} TFLOPS, rested 5 s")
