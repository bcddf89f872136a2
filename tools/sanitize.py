"""compute-sanitizer over every kernel: memcheck, racecheck, initcheck and synccheck (GPU needed).

    python3 -m tools.sanitize [--tools memcheck,racecheck] [--kernels advanced,best]

Runs `python3 -m tools.sanitize_driver` (every kernel on small ragged shapes, each result checked against float64,
then the benchmark helper once) under each tool, writes results/latest/sanitizer-<tool>.log and exits 1 when any tool
reports an error or the driver fails.
"""
from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")


def reported_errors(tool: str, log: str) -> int | None:
    """Errors the sanitizer reported in its summary line, or None when no summary was found."""
    if tool == "racecheck":
        match = re.search(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, \d+ warnings?\)", log)
    else:
        match = re.search(r"ERROR SUMMARY: (\d+) errors?", log)
    return int(match.group(1)) if match else None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.sanitize", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated sanitizer tools")
    parser.add_argument("--kernels", default="", help="comma-separated kernels (default: every registered kernel)")
    args = parser.parse_args(argv)
    sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not Path(sanitizer).exists():
        print("compute-sanitizer not found (it ships with the CUDA toolkit; add its bin/ to PATH)", file=sys.stderr)
        return 2
    logs = ROOT / "results" / "latest"
    logs.mkdir(parents=True, exist_ok=True)
    driver = [sys.executable, "-m", "tools.sanitize_driver"]  # in the repository root (cwd below)
    if args.kernels:
        driver += ["--kernels", args.kernels]
    failed = []
    for tool in [t.strip() for t in args.tools.split(",") if t.strip()]:
        command = [sanitizer, "--tool", tool, "--target-processes", "all", "--error-exitcode", "86", *driver]
        print(f"== {tool}: {' '.join(shlex.quote(part) for part in command)}", flush=True)
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        log = run.stdout + run.stderr
        log_path = logs / f"sanitizer-{tool}.log"
        log_path.write_text(f"$ {' '.join(shlex.quote(part) for part in command)}\n{log}\nexit status {run.returncode}\n")
        errors = reported_errors(tool, log)
        summary = next((line for line in log.splitlines() if "SUMMARY" in line), "no sanitizer summary")
        print(f"   {summary.strip()}  (exit {run.returncode}; log {log_path.relative_to(ROOT)})")
        if run.returncode != 0 or errors is None or errors > 0:
            failed.append(tool)
    if failed:
        print(f"sanitizer reported errors (or the driver failed) under: {', '.join(failed)}", file=sys.stderr)
        return 1
    print("all sanitizer runs clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
