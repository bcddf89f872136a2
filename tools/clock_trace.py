"""For experiments on power-limited kernels: nvidia-smi's SM clock, power draw and temperature, sampled every
interval while a block runs, into a CSV file, and a printer that stamps each line with the time since the start.
GPU needed (nvidia-smi).

    from tools.clock_trace import clock_trace   # with the repository root on sys.path

    with clock_trace(out_dir / "clocks.csv") as log:
        log("4096^3 ...")
"""
from __future__ import annotations

import contextlib
import subprocess
import time
from pathlib import Path


@contextlib.contextmanager
def clock_trace(csv_path: Path, interval_ms: int = 100):
    with open(csv_path, "w") as sink:
        sampler = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu",
                                    "--format=csv", "-lms", str(interval_ms)], stdout=sink)
        start = time.time()

        def log(text: str) -> None:
            print(f"{time.strftime('%H:%M:%S')} {time.time() - start:7.2f} s  {text}", flush=True)

        try:
            yield log
        finally:
            sampler.terminate()
            sampler.wait()
