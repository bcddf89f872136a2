"""wgmma_3xtf32's error against cuBLAS fp32's (pedantic) over K, on fresh inputs of two seeds: uniform [-1, 1] at
256 x K x 256 (the report's table, with its error scale) and 512 x K x 512, and log-uniform magnitudes over
[2^-40, 2^40] with random signs at 512 x K x 512 (issue 18's bounds: 1x and 2x cuBLAS fp32).

    MATMUL_OPT_LIBRARY=path/to/libmatmul.so python3 accuracy_sweep.py LABEL
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT)]
from tools.fp32_accuracy import log_uniform, sweep_row, uniform  # noqa: E402

label = sys.argv[1]
for draw, mn in ((uniform, 256), (uniform, 512), (log_uniform, 512)):
    for seed in (1, 2):
        print(f"{label:<10} " + sweep_row("wgmma_3xtf32", draw, mn, seed, (256, 1024, 4096, 16384, 65536)),
              flush=True)
