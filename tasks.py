"""Project tasks (pip install invoke; `invoke --list`): thin wrappers around make, pytest, the project's modules and
its tools (tools/, each run as `python3 -m tools.NAME`), which hold the logic.

    invoke build [--arch sm_86]          make -j (matmul_opt/libmatmul.so)
    invoke test [--cpu-only]             pytest tests, with skip reasons (--cpu-only: -m "not gpu")
    invoke bench [--args "..."]          python3 -m matmul_opt, the report
    invoke clean                         make clean, and asv's environments and HTML
    invoke asv [--bench REGEX]           asv on this GPU, results under results/asv/<gpu-model>/
    invoke publish                       asv publish: HTML of all committed results in .asv/html
    invoke regressions BASE HEAD         exit 1 when a kernel time is >10% worse in HEAD than in BASE (cuBLAS: listed)
    invoke graph [--commit REF]          docs/gflops.png: GFLOPS per kernel against size (needs matplotlib;
                                         --install pip-installs it, otherwise it prints the pip command)
    invoke sanitize                      compute-sanitizer memcheck/racecheck/initcheck/synccheck over all kernels
    invoke docs [--check]                the docs' generated figures and pictures, from the committed results
"""
from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from invoke import Exit, task

ROOT = Path(__file__).resolve().parent
PYTHON = shlex.quote(sys.executable)
RESULTS_DIR = ROOT / "results" / "asv"


def _python(c, module_and_args: str):
    """Runs `python3 <module_and_args>` in the repository root, passing its exit status on."""
    with c.cd(str(ROOT)):
        result = c.run(f"{PYTHON} {module_and_args}", warn=True)
    if result.exited:
        raise Exit(code=result.exited)


@task(help={"arch": "GPU architecture, e.g. sm_86 (default: the Makefile's, sm_90)"})
def build(c, arch=None):
    """Build matmul_opt/libmatmul.so with the Makefile, one job per CPU."""
    with c.cd(str(ROOT)):
        c.run(f"make -j{os.cpu_count() or 1}" + (f" ARCH={shlex.quote(arch)}" if arch else ""))


@task(help={"cpu_only": "skip GPU tests (-m 'not gpu')", "args": "extra pytest arguments"})
def test(c, cpu_only=False, args=""):
    """Run the test suite; skipped tests are listed with their reason."""
    marker = ' -m "not gpu"' if cpu_only else ""
    _python(c, f"-m pytest tests -rs{marker} {args}".rstrip())


@task(help={"args": "arguments for python3 -m matmul_opt, e.g. \"--help\""})
def bench(c, args=""):
    """The report: verify and time every kernel (python3 -m matmul_opt)."""
    _python(c, f"-m matmul_opt {args}".rstrip())


@task
def clean(c):
    """make clean, and remove asv's environments (.asv/env) and HTML (.asv/html). Results are kept."""
    with c.cd(str(ROOT)):
        c.run("make clean")
    for path in (ROOT / ".asv" / "env", ROOT / ".asv" / "html"):
        if path.exists():
            print(f"removing {path.relative_to(ROOT)}")
            shutil.rmtree(path)


@task(
    pre=[build],
    help={
        "bench": "regex of benchmarks to run (asv --bench)",
        "machine": "machine name to record (default: the GPU model, e.g. nvidia-h200)",
        "commit": "commit to record the results under (default: HEAD)",
    },
)
def asv(c, bench=None, machine=None, commit="HEAD"):
    """Offline asv run of the working tree on this GPU; results in results/asv/<gpu-model>/."""
    registered = subprocess.run([sys.executable, "-m", "benchmarks.machine", *(["--machine", machine] if machine else [])],
                                cwd=ROOT, capture_output=True, text=True)
    sys.stderr.write(registered.stderr)
    if registered.returncode:
        raise Exit(code=registered.returncode)
    machine = registered.stdout.strip()
    head = subprocess.run(["git", "rev-parse", commit], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    if subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                      text=True).stdout:
        print(f"warning: the working tree has uncommitted changes; results are recorded for {head[:8]}")
    command = (f"{PYTHON} -m asv run --python=same --set-commit-hash={head} --machine {shlex.quote(machine)} "
               "--show-stderr" + (f" --bench {shlex.quote(bench)}" if bench else ""))
    with c.cd(str(ROOT)):
        c.run(command, env={"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))})
    print(f"results: {RESULTS_DIR.relative_to(ROOT)}/{machine}/{head[:8]}-*.json (commit them after the change)")


@task
def publish(c):
    """asv publish: static HTML of every committed result (no GPU needed), in .asv/html."""
    if not (RESULTS_DIR / "benchmarks.json").exists():
        raise Exit(f"no asv results under {RESULTS_DIR.relative_to(ROOT)} yet: run `invoke asv` on a GPU machine first")
    _python(c, "-m asv publish")
    print(f"\nHTML written to {ROOT / '.asv' / 'html'}/index.html. View it with a web server (file:// does not work):")
    print("  asv preview                                   # serves .asv/html on http://127.0.0.1:8080")
    print(f"  {sys.executable} -m http.server -d .asv/html 8080")


@task(
    help={
        "base": "baseline (git ref: the newest results in its tree; the report says first when those are another "
                "commit's)",
        "head": "ref to check (git ref: the newest results in its tree)",
        "threshold": "allowed slowdown of the project's kernel times, track_kernel_ms (default 0.10 = 10%)",
        "machine": "compare only this machine (default: every machine with results for both)",
        "strict": "also fail when a result is missing in either",
        "exact": "compare the results of BASE and HEAD themselves",
    }
)
def regressions(c, base, head, threshold=0.10, machine=None, strict=False, exact=False):
    """Compare two refs' committed asv results; exit 1 when a kernel time is worse in HEAD by more than the threshold
    (cuBLAS's own times are listed as references, never failing)."""
    options = f" --threshold {float(threshold)}" + (f" --machine {shlex.quote(machine)}" if machine else "")
    options += (" --strict" if strict else "") + (" --exact" if exact else "")
    _python(c, f"-m tools.regressions {shlex.quote(base)} {shlex.quote(head)} "
               f"--results-dir {shlex.quote(str(RESULTS_DIR))}{options}")


@task(
    help={
        "commit": "commit whose committed results to draw (default: the newest with results)",
        "machine": "machine to draw (default: every machine with results for the commit, one panel each)",
        "output": "PNG to write (default docs/gflops.png)",
        "install": "pip install matplotlib (and the packages it pulls in) into this Python's environment if it is "
                   "missing (default: install nothing; print the pip command and exit 1)",
        "no_install": "install nothing (the default; kept for older command lines)",
    }
)
def graph(c, commit=None, machine=None, output="docs/gflops.png", install=False, no_install=False):
    """Draw docs/gflops.png, GFLOPS per kernel against size, from committed asv results (needs matplotlib)."""
    install = install and not no_install
    if not install and importlib.util.find_spec("matplotlib") is None:
        raise Exit(f"invoke graph needs matplotlib, which {sys.executable} does not have. Install it (with the "
                   f"packages it pulls in) with\n  {PYTHON} -m pip install matplotlib\nor run `invoke graph "
                   "--install`, which runs that for you.", code=1)
    options = (f" --commit {shlex.quote(commit)}" if commit else "") + (f" --machine {shlex.quote(machine)}" if machine else "")
    install_option = " --install" if install else " --no-install"
    _python(c, f"-m tools.graph --output {shlex.quote(output)}{options}{install_option}")


@task(
    help={
        "tools": "comma-separated sanitizer tools (default memcheck,racecheck,initcheck,synccheck)",
        "kernels": "comma-separated kernels (default: every registered kernel)",
    }
)
def sanitize(c, tools="memcheck,racecheck,initcheck,synccheck", kernels=""):
    """compute-sanitizer over every kernel on small ragged shapes; logs in results/latest/sanitizer-<tool>.log."""
    kernels_option = f" --kernels {shlex.quote(kernels)}" if kernels else ""
    _python(c, f"-m tools.sanitize --tools {shlex.quote(tools)}{kernels_option}")


@task(help={"check": "check the committed documents against the committed results instead of writing them"})
def docs(c, check=False):
    """Write every generated figure of the docs from the committed results (results/latest/): the figure columns of
    the kernel tables (tools/doc_figures.py), the pictures under docs/figures/ (tools/doc_pictures.py, which
    draws with matplotlib; --check needs none) and the tutorial's Nsight Compute table (docs/tutorial/ncu/)."""
    flag = " --check" if check else ""
    _python(c, f"-m tools.doc_figures{flag}")
    _python(c, f"-m tools.doc_pictures{flag}")
    _python(c, f"docs/tutorial/ncu/summarize.py{flag}")
