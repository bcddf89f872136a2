"""compute-sanitizer over every kernel: memcheck, racecheck, initcheck and synccheck (GPU needed).

    python3 -m tools.sanitize [--tools memcheck,racecheck] [--kernels advanced,best] [--jobs 3] [--timeout 600]

Runs `python3 -m tools.sanitize_driver` (every kernel on small ragged shapes, each result checked against float64,
then the benchmark helper once) under each tool, writes results/latest/sanitizer-<tool>.log and exits 1 when any tool
reports an error, the driver fails or a run passes --timeout. With --jobs N above 1, each kernel runs under each tool
in a process of its own, N at a time (logs sanitizer-<tool>-<kernel>.log): racecheck slows some kernels by orders of
magnitude, and one slow kernel then neither holds up the others nor hides their results. Every run prints its
seconds.
"""
from __future__ import annotations

import argparse
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import matmul_opt

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "results" / "latest"
TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")


def reported_errors(tool: str, log: str) -> int | None:
    """Errors the sanitizer reported in its summary line, or None when no summary was found."""
    if tool == "racecheck":
        match = re.search(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, \d+ warnings?\)", log)
    else:
        match = re.search(r"ERROR SUMMARY: (\d+) errors?", log)
    return int(match.group(1)) if match else None


def sanitize(sanitizer: str, tool: str, kernels: str, log_name: str, timeout: float | None) -> tuple[bool, str]:
    """One compute-sanitizer run of the driver over `kernels` (comma-separated; empty: every kernel) under `tool`:
    (clean, the line to print). Its log is results/latest/<log_name>."""
    driver = [sys.executable, "-m", "tools.sanitize_driver"] + (["--kernels", kernels] if kernels else [])
    command = [sanitizer, "--tool", tool, "--target-processes", "all", "--error-exitcode", "86", *driver]
    shown = " ".join(shlex.quote(part) for part in command)
    log_path = LOGS / log_name
    start = time.monotonic()
    try:
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        log, status = run.stdout + run.stderr, run.returncode
    except subprocess.TimeoutExpired as exc:  # its output so far comes as bytes, whatever `text` says
        log = "".join(part.decode(errors="replace") if isinstance(part, bytes) else part or ""
                      for part in (exc.stdout, exc.stderr))
        status = None
    seconds = time.monotonic() - start
    log_path.write_text(f"$ {shown}\n{log}\n" + (f"exit status {status}\n" if status is not None else
                                                   f"stopped after {timeout:g} s\n"))
    errors = reported_errors(tool, log)
    if status is None:
        summary = f"did not finish in {timeout:g} s"
    else:
        summary = next((line.strip() for line in log.splitlines() if "SUMMARY" in line), "no sanitizer summary")
        summary += f"  (exit {status})"
    clean = status == 0 and errors == 0
    label = f"{tool} {kernels}" if kernels else tool
    shown_log = log_path.relative_to(ROOT) if log_path.is_relative_to(ROOT) else log_path
    return clean, f"== {label}: {summary}, {seconds:.0f} s; log {shown_log}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.sanitize", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--tools", default=",".join(TOOLS), help="comma-separated sanitizer tools")
    parser.add_argument("--kernels", default="", help="comma-separated kernels (default: every registered kernel)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="runs at once; above 1, one run per kernel and tool")
    parser.add_argument("--timeout", type=float, default=None, help="seconds a run may take (default: no limit)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not Path(sanitizer).exists():
        print("compute-sanitizer not found (it ships with the CUDA toolkit; add its bin/ to PATH)", file=sys.stderr)
        return 2
    LOGS.mkdir(parents=True, exist_ok=True)
    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    if args.jobs == 1:
        runs = [(tool, args.kernels, f"sanitizer-{tool}.log") for tool in tools]
    else:
        kernels = [k.strip() for k in args.kernels.split(",") if k.strip()] or matmul_opt.kernel_names()
        runs = [(tool, kernel, f"sanitizer-{tool}-{kernel}.log") for tool in tools for kernel in kernels]
    print(f"compute-sanitizer: {sanitizer}; {len(runs)} run(s), {args.jobs} at a time", flush=True)
    failed = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(sanitize, sanitizer, *run, args.timeout): run for run in runs}
        for future in as_completed(futures):  # each as it ends: a call that is stopped keeps what finished
            clean, line = future.result()
            print(line, flush=True)
            if not clean:
                tool, kernels, _ = futures[future]
                failed.append(f"{tool} {kernels}".strip())
    if failed:
        print(f"sanitizer reported errors (or the driver failed, or did not finish) under: {', '.join(failed)}",
              file=sys.stderr)
        return 1
    print("all sanitizer runs clean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
