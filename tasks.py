"""Project tasks (pip install invoke; `invoke --list`).

    invoke build [--arch sm_86]          make (the CUDA library matmul_opt/libmatmul.so)
    invoke test [--cpu-only]             pytest tests (--cpu-only: -m "not gpu")
    invoke bench [--args "..."]          python -m matmul_opt, the GFLOPS report
    invoke clean                         make clean, and asv's environments and HTML
    invoke asv [--bench REGEX]           asv on this GPU, results under results/asv/<gpu-model>/
    invoke publish                       asv publish: HTML of all committed results in .asv/html
    invoke regressions BASE HEAD         exit 1 when a kernel time is >10% worse in HEAD than in BASE
    invoke graph [--commit REF]          docs/gflops.png: GFLOPS per kernel against size
    invoke sanitize                      compute-sanitizer memcheck/racecheck/initcheck/synccheck over all kernels
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from invoke import Exit, task

ROOT = Path(__file__).resolve().parent
PYTHON = shlex.quote(sys.executable)
RESULTS_DIR = ROOT / "results" / "asv"
SANITIZER_TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")


def _git(*args: str) -> str:
    """Read-only git queries."""
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def _resolve(ref: str) -> str:
    try:
        return _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError:
        raise Exit(f"unknown commit {ref!r}", code=2)


@task(help={"arch": "GPU architecture, e.g. sm_86 (default: the Makefile's, sm_90)"})
def build(c, arch=None):
    """Build matmul_opt/libmatmul.so with the Makefile."""
    with c.cd(str(ROOT)):
        c.run("make" + (f" ARCH={shlex.quote(arch)}" if arch else ""), pty=False)


@task(help={"cpu_only": "skip GPU tests (-m 'not gpu')", "args": "extra pytest arguments"})
def test(c, cpu_only=False, args=""):
    """Run the test suite."""
    marker = ' -m "not gpu"' if cpu_only else ""
    with c.cd(str(ROOT)):
        c.run(f"{PYTHON} -m pytest tests{marker} {args}".rstrip())


@task(help={"args": "arguments for python -m matmul_opt, e.g. \"--help\""})
def bench(c, args=""):
    """The GFLOPS report of every kernel (python -m matmul_opt)."""
    with c.cd(str(ROOT)):
        c.run(f"{PYTHON} -m matmul_opt {args}".rstrip())


@task
def clean(c):
    """make clean, and remove asv's environments (.asv/env) and HTML (.asv/html). Results are kept."""
    with c.cd(str(ROOT)):
        c.run("make clean")
    for path in (ROOT / ".asv" / "env", ROOT / ".asv" / "html"):
        if path.exists():
            print(f"removing {path.relative_to(ROOT)}")
            shutil.rmtree(path)


def machine_slug(gpu_name: str) -> str:
    """'NVIDIA H200' -> 'nvidia-h200': asv records no GPU, so the machine name is the GPU model."""
    return re.sub(r"[^a-z0-9]+", "-", gpu_name.lower()).strip("-") or "unknown-gpu"


def _cuda_version(number: int) -> str:
    return f"{number // 1000}.{number % 1000 // 10}"  # 13000 -> 13.0


def _gpu_description() -> dict | None:
    """The GPU's model and versions, asked in a child process so this one never initialises CUDA."""
    code = (
        "import json, matmul_opt; d = matmul_opt.device_info(); print(json.dumps({'name': d.name, "
        "'cc': '%d%d' % d.compute_capability, 'sms': d.sm_count, 'memory_gib': d.total_memory_bytes / 2**30, "
        "'driver': d.driver_version, 'runtime': d.runtime_version}))"
    )
    probe = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    if probe.returncode != 0:
        lines = probe.stderr.strip().splitlines()
        print(lines[-1] if lines else "device query failed")
        return None
    return json.loads(probe.stdout.strip().splitlines()[-1])


@task(
    pre=[build],
    help={
        "bench": "regex of benchmarks to run (asv --bench)",
        "machine": "machine name to record (default: the GPU model, e.g. nvidia-h200)",
    },
)
def asv(c, bench=None, machine=None):
    """Offline asv run of the working tree on this GPU (python=same), results in results/asv/<gpu-model>/."""
    gpu = _gpu_description()
    if gpu is None and machine is None:
        raise Exit("no usable GPU: asv results are named after the GPU model (pass --machine to override)")
    machine = machine or machine_slug(gpu["name"])
    gpu_description = (
        f"{gpu['name']}, sm_{gpu['cc']}, {gpu['sms']} SMs, {gpu['memory_gib']:.0f} GiB, "
        f"CUDA driver API {_cuda_version(gpu['driver'])}, runtime {_cuda_version(gpu['runtime'])}" if gpu else "none"
    )
    from asv.machine import Machine  # asv is only needed for the asv tasks

    # What `asv machine --yes` records for the host (OS, arch, CPU, cores, RAM), under the GPU's name. The CLI
    # cannot do this in one step: `asv machine --yes --machine NAME --cpu ...` drops every option equal to its
    # default, so machine.json would hold the name alone. Machine.load is what the CLI calls; it writes the entry
    # to ~/.asv-machine.json, from which `asv run --machine NAME` copies it to results/asv/NAME/machine.json.
    fields = dict(Machine.get_defaults(), machine=machine, gpu=gpu_description)
    Machine.load(machine_name=machine, **fields)
    print("asv machine:", json.dumps(fields))
    head = _resolve("HEAD")
    if _git("status", "--porcelain", "--untracked-files=no"):
        print(f"warning: the working tree has uncommitted changes; results are recorded for HEAD {head[:8]}")
    env = {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    with c.cd(str(ROOT)):
        command = (
            f"{PYTHON} -m asv run --python=same --set-commit-hash={head} "
            f"--machine {shlex.quote(machine)} --show-stderr"
        )
        if bench:
            command += f" --bench {shlex.quote(bench)}"
        c.run(command, env=env)
    print(f"results: {RESULTS_DIR.relative_to(ROOT)}/{machine}/{head[:8]}-*.json (commit them with the change)")


@task
def publish(c):
    """asv publish: static HTML of every committed result (no GPU needed), in .asv/html."""
    if not (RESULTS_DIR / "benchmarks.json").exists():
        raise Exit(f"no asv results under {RESULTS_DIR.relative_to(ROOT)} yet: run `invoke asv` on a GPU machine first")
    with c.cd(str(ROOT)):
        c.run(f"{PYTHON} -m asv publish")
    html = ROOT / ".asv" / "html"
    print(f"\nHTML written to {html}/index.html. View it with a web server (file:// does not work):")
    print("  asv preview                                   # serves .asv/html on http://127.0.0.1:8080")
    print(f"  {sys.executable} -m http.server -d .asv/html 8080")


@task(
    help={
        "base": "baseline commit (git ref)",
        "head": "commit to check (git ref)",
        "threshold": "allowed slowdown of track_kernel_ms (default 0.10 = 10%)",
        "machine": "compare only this machine (default: every machine with results for both)",
        "strict": "also fail when a result is missing in either commit",
    }
)
def regressions(c, base, head, threshold=0.10, machine=None, strict=False):
    """Compare two commits' committed asv results; exit 1 when a kernel time is >threshold worse in HEAD."""
    sys.path.insert(0, str(ROOT))
    from benchmarks import regressions as module

    comparison = module.compare(RESULTS_DIR, _resolve(base), _resolve(head), threshold=float(threshold), machine=machine)
    print(module.format_report(comparison))
    code = comparison.exit_code(strict=strict)
    if code:
        raise Exit(code=code)


def _import_matplotlib(install: bool):
    try:
        import matplotlib
    except ImportError:
        if not install:
            raise Exit("invoke graph needs matplotlib: pip install matplotlib (or run with --install)")
        print("invoke graph needs matplotlib (only this task does); installing it with pip ...")
        subprocess.run([sys.executable, "-m", "pip", "install", "matplotlib"], check=True)
        import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@task(
    help={
        "commit": "commit whose committed results to draw (default: the newest with results)",
        "machine": "machine to draw (default: every machine with results for the commit, one panel each)",
        "output": "PNG to write (default docs/gflops.png)",
        "install": "pip install matplotlib if it is missing (default true; --no-install to refuse)",
    }
)
def graph(c, commit=None, machine=None, output="docs/gflops.png", install=True):
    """Draw GFLOPS per kernel against problem size from the committed asv results (default: the newest
    commit in HEAD's history that has results)."""
    sys.path.insert(0, str(ROOT))
    from benchmarks import regressions as results_reader
    from matmul_opt.report import parse_shape

    if commit is None:
        commit = next((rev for rev in _git("rev-list", "HEAD").split()
                       if results_reader.load_results(RESULTS_DIR, rev, machine)), "HEAD")
    full = _resolve(commit)
    results = results_reader.load_results(RESULTS_DIR, full, machine)
    if not results:
        raise Exit(f"no asv results for {commit} ({full[:8]}) under {RESULTS_DIR.relative_to(ROOT)}; run `invoke asv`")
    plt = _import_matplotlib(install)
    figure, axes = plt.subplots(1, len(results), figsize=(7 * len(results), 5), squeeze=False)
    for axis, (machine_name, values) in zip(axes[0], sorted(results.items())):
        series: dict[str, list[tuple[float, float, bool]]] = {}
        for (name, params), value in values.items():
            if not name.endswith(".track_gflops") or value is None or len(params) != 2:
                continue
            kernel, shape = params
            M, N, K = parse_shape(shape)
            # A ragged M x N x K sits at the cube root of its volume: the square size with the same FLOP count.
            size = (M * N * K) ** (1 / 3)
            series.setdefault(kernel, []).append((size, value, "x" not in shape))
        # tab20 rather than the default 10-colour cycle: with 11 kernels the first and the last shared a colour.
        colours = plt.get_cmap("tab20").colors
        for index, (kernel, points) in enumerate(series.items()):
            square = sorted((s, v) for s, v, is_square in points if is_square)
            ragged = [(s, v) for s, v, is_square in points if not is_square]
            (line,) = axis.plot([s for s, _ in square], [v for _, v in square], marker="o", label=kernel,
                                color=colours[index % len(colours)])
            if ragged:
                axis.plot([s for s, _ in ragged], [v for _, v in ragged], linestyle="none", marker="D",
                          markerfacecolor="none", color=line.get_color())
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")  # tf32 tensor cores run ~10x the fp32 kernels
        ticks = sorted({s for points in series.values() for s, _, is_square in points if is_square})
        axis.set_xticks(ticks, [f"{t:.0f}" for t in ticks])
        axis.set_xlabel("size (M = N = K; hollow diamonds: ragged shapes at the cube root of M*N*K)")
        axis.set_ylabel("GFLOPS")
        axis.set_title(f"{machine_name}, commit {full[:8]}")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize="small")
    figure.tight_layout()
    path = ROOT / output
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    print(f"wrote {path.relative_to(ROOT)}")


def _sanitizer_errors(tool: str, log: str) -> int | None:
    """Errors the sanitizer reported in its summary line, or None when no summary was found."""
    if tool == "racecheck":
        match = re.search(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, \d+ warnings?\)", log)
    else:
        match = re.search(r"ERROR SUMMARY: (\d+) errors?", log)
    return int(match.group(1)) if match else None


@task(
    help={
        "tools": "comma-separated sanitizer tools (default memcheck,racecheck,initcheck,synccheck)",
        "kernels": "comma-separated kernels (default: every registered kernel)",
    }
)
def sanitize(c, tools=",".join(SANITIZER_TOOLS), kernels=""):
    """compute-sanitizer over every kernel on small ragged shapes; logs in docs/results/sanitizer-<tool>.log."""
    sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not Path(sanitizer).exists():
        raise Exit("compute-sanitizer not found (it ships with the CUDA toolkit; add its bin/ to PATH)")
    logs = ROOT / "docs" / "results"
    logs.mkdir(parents=True, exist_ok=True)
    driver = [sys.executable, str(ROOT / "scripts" / "sanitize_driver.py")]
    if kernels:
        driver += ["--kernels", kernels]
    failed = []
    for tool in [t.strip() for t in tools.split(",") if t.strip()]:
        command = [sanitizer, "--tool", tool, "--target-processes", "all", "--error-exitcode", "86", *driver]
        print(f"== {tool}: {' '.join(shlex.quote(part) for part in command)}", flush=True)
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        log = run.stdout + run.stderr
        log_path = logs / f"sanitizer-{tool}.log"
        log_path.write_text(f"$ {' '.join(shlex.quote(part) for part in command)}\n{log}\nexit status {run.returncode}\n")
        errors = _sanitizer_errors(tool, log)
        summary = next((line for line in log.splitlines() if "SUMMARY" in line), "no sanitizer summary")
        print(f"   {summary.strip()}  (exit {run.returncode}; log {log_path.relative_to(ROOT)})")
        if run.returncode != 0 or errors is None or errors > 0:
            failed.append(tool)
    if failed:
        raise Exit(f"sanitizer reported errors (or the driver failed) under: {', '.join(failed)}", code=1)
    print("all sanitizer runs clean")
