"""wgmma_3xtf32 of one library held busy for a few seconds at one shape (GPU needed): prints the wall-clock
start and end of the busy phase and the median kernel time of its benchmark() calls, for lining up with an
nvidia-smi clock and power trace taken beside it.

    MATMUL_OPT_LIBRARY=path/to/libmatmul.so python3 sustained.py LABEL SIZE SECONDS
"""
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402

label, size, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
matmul_opt.benchmark("wgmma_3xtf32", size, size, size, warmup=3, repetitions=3)
start = time.time()
times = []
while time.time() - start < seconds:
    times.append(matmul_opt.benchmark("wgmma_3xtf32", size, size, size, warmup=0, repetitions=10).ms)
end = time.time()
ms = statistics.median(times)
print(f"{label:<14} {size}^3  busy {start:.2f}-{end:.2f}  median {ms:.4f} ms  {2 * size**3 / (ms * 1e9):.1f} TFLOPS"
      f"  ({len(times)} calls of 10)")
