"""wgmma_3xtf32 with two builds, in alternating processes: its error against cuBLAS fp32's (pedantic) at the K where
the short promotion chunk applies (K < 4096), and its speed at shapes with K < 4096. GPU needed.

    python3 probe.py ROUNDS LABEL=LIB [LABEL=LIB ...]
    python3 probe.py --child LABEL        (one process: MATMUL_OPT_LIBRARY names the library)

Accuracy: uniform [-1, 1] at 256 x K x 256 (the report's table, seeds 1 to 4) and 512 x K x 512 (seeds 1, 2), and
magnitudes log-uniform over [2^-40, 2^40] with random signs at 512 x K x 512 (seeds 1, 2); printed in round 0 only.
Speed: matmul_opt.benchmark (5 warm-up rounds, median of 30), after a 0.5 s rest, TFLOPS.
"""
import os
import subprocess
import sys
import time
from pathlib import Path

KS = (256, 512, 1024, 2048)
SHAPES = [(512,) * 3, (1024,) * 3, (2048,) * 3, (3072,) * 3, (1025, 1023, 1021), (8192, 8192, 512),
          (8192, 8192, 2048)]


def child(label, accuracy):
    root = Path(__file__).resolve().parents[3]
    sys.path[:0] = [str(root)]
    import matmul_opt
    from tools.fp32_accuracy import log_uniform, sweep_row, uniform

    if accuracy:
        for draw, mn, seeds in ((uniform, 256, (1, 2, 3, 4)), (uniform, 512, (1, 2)), (log_uniform, 512, (1, 2))):
            for seed in seeds:
                print(f"{label:<10} " + sweep_row("wgmma_3xtf32", draw, mn, seed, KS), flush=True)
    for shape in SHAPES:
        time.sleep(0.5)
        ms = matmul_opt.benchmark("wgmma_3xtf32", *shape, warmup=5, repetitions=30).ms
        print(f"{label:<10} {'x'.join(map(str, shape)):<15} {ms:.4f} ms "
              f"{2 * shape[0] * shape[1] * shape[2] / (ms * 1e9):6.1f} TFLOPS", flush=True)


def main():
    rounds, pairs = int(sys.argv[1]), [arg.split("=", 1) for arg in sys.argv[2:]]
    for r in range(rounds):
        for label, lib in pairs:
            env = dict(os.environ, MATMUL_OPT_LIBRARY=str(Path(lib).resolve()))
            subprocess.run([sys.executable, __file__, "--child", label, str(int(r == 0))], env=env, check=True)


if __name__ == "__main__":
    child(sys.argv[2], sys.argv[3] == "1") if sys.argv[1] == "--child" else main()
