"""The mid-size record's sweep (every configuration of best at several forced K-slice counts, beside best and
cuBLAS) over this record's shapes: probe.py's, which include that record's, and the held-out shapes nobody tuned to
(GPU needed).

    python3 sweep.py [--repetitions 10] [--json out.json]
"""
import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import probe  # noqa: E402

spec = importlib.util.spec_from_file_location("mid_size_sweep", HERE.parent / "2026-12-03-mid-size" / "sweep.py")
mid_size_sweep = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mid_size_sweep)

HELD_OUT = [(48, 7000, 3000), (700, 8192, 3072), (1800, 900, 1800), (2048, 11008, 4096), (900, 2300, 1300),
            (3000, 1000, 2000), (450, 450, 4500)]

if __name__ == "__main__":
    mid_size_sweep.SHAPES = probe.SHAPES + HELD_OUT
    mid_size_sweep.main()
