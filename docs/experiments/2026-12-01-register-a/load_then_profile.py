"""CALLS benchmark() calls of wgmma_3xtf32 at SIZE^3, 10 launches each and no warm-up, for ncu to profile one
launch of, either the second (cold: the GPU idle before) or one late in the loop (hot: after seconds of load at
the power limit). See run_call3.sh.

    python3 load_then_profile.py SIZE CALLS
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import matmul_opt  # noqa: E402

size, calls = int(sys.argv[1]), int(sys.argv[2])
for _ in range(calls):
    matmul_opt.benchmark("wgmma_3xtf32", size, size, size, warmup=0, repetitions=10)
