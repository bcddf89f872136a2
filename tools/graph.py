"""GFLOPS per kernel against problem size, drawn from committed asv results (results.py reads them).

    python3 -m tools.graph [--commit REF] [--machine NAME] [--output docs/gflops.png] [--install]

Square shapes are lines with dots; ragged ones hollow diamonds at the cube root of M*N*K (the square size with the
same FLOP count). The baselines (cuBLAS) are black and grey, dashed; every other kernel gets a hue of its own.
Needs matplotlib (nothing else in the project does): with --install it installs it with pip when missing; without,
it names the pip command and exits.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from .results import commit_of, load_results

ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = ROOT / "results" / "asv"
BASELINE_STYLES = {"cublas": ("black", "--"), "cublas_tf32": ("0.55", "--")}


def newest_commit_with_results(results_dir=RESULTS_DIR, machine: str | None = None) -> str | None:
    """The newest commit of HEAD's history that has results under results_dir."""
    history = subprocess.run(["git", "rev-list", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    return next((rev for rev in history if load_results(results_dir, rev, machine)), None)


def series(values: dict) -> dict[str, list[tuple[float, float, bool]]]:
    """{kernel: [(size, GFLOPS, is_square)]} from one machine's results."""
    from matmul_opt.report import parse_shape

    found: dict[str, list[tuple[float, float, bool]]] = {}
    for (name, params), value in values.items():
        if not name.endswith(".track_gflops") or value is None or len(params) != 2:
            continue
        kernel, shape = params
        M, N, K = parse_shape(shape)
        found.setdefault(kernel, []).append(((M * N * K) ** (1 / 3), value, "x" not in shape))
    return found


def styles(kernels: list[str], palette) -> dict[str, tuple]:
    """(colour, line style) per kernel: the baselines' own, then the palette's hues in turn."""
    others = iter(palette)
    return {k: BASELINE_STYLES.get(k) or (next(others, None) or palette[i % len(palette)], "-")
            for i, k in enumerate(kernels)}


def _pyplot(install: bool):
    try:
        import matplotlib
    except ImportError:
        if not install:
            sys.exit(f"the graph needs matplotlib: {sys.executable} -m pip install matplotlib (or pass --install)")
        print("the graph needs matplotlib (nothing else does); installing it with pip ...")
        subprocess.run([sys.executable, "-m", "pip", "install", "matplotlib"], check=True)
        import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def draw(commit: str, results: dict, output: Path, install: bool) -> None:
    plt = _pyplot(install)
    figure, axes = plt.subplots(1, len(results), figsize=(7 * len(results), 5), squeeze=False)
    # tab10's distinct hues but its grey (the baselines' colours), then tab20's light shades of the same hues.
    tab10, tab20 = plt.get_cmap("tab10").colors, plt.get_cmap("tab20").colors
    palette = [c for i, c in enumerate(tab10) if i != 7] + [c for i, c in enumerate(tab20) if i % 2 and i != 15]
    for axis, (machine_name, values) in zip(axes[0], sorted(results.items())):
        points = series(values)
        look = styles(list(points), palette)
        for kernel, kernel_points in points.items():
            colour, line_style = look[kernel]
            square = sorted((s, v) for s, v, is_square in kernel_points if is_square)
            ragged = [(s, v) for s, v, is_square in kernel_points if not is_square]
            axis.plot([s for s, _ in square], [v for _, v in square], marker="o", linestyle=line_style, label=kernel,
                      color=colour)
            if ragged:
                axis.plot([s for s, _ in ragged], [v for _, v in ragged], linestyle="none", marker="D",
                          markerfacecolor="none", color=colour)
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")  # tf32 tensor cores run ~10x the fp32 kernels
        ticks = sorted({s for kernel_points in points.values() for s, _, is_square in kernel_points if is_square})
        axis.set_xticks(ticks, [f"{t:.0f}" for t in ticks])
        axis.set_xlabel("size (M = N = K; hollow diamonds: ragged shapes at the cube root of M*N*K)")
        axis.set_ylabel("GFLOPS")
        axis.set_title(f"{machine_name}, commit {commit[:8]}")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize="small")
    figure.tight_layout()
    output.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(output, dpi=120)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.graph", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--commit", help="commit whose results to draw (default: the newest one with results)")
    parser.add_argument("--machine", help="machine to draw (default: every machine with results, a panel each)")
    parser.add_argument("--output", default="docs/gflops.png", help="PNG to write")
    parser.add_argument("--install", action="store_true", help="pip install matplotlib if it is missing")
    parser.add_argument("--no-install", action="store_true", help="install nothing (the default; kept for older "
                        "command lines)")
    args = parser.parse_args(argv)
    commit = commit_of(args.commit, ROOT) if args.commit else newest_commit_with_results(RESULTS_DIR, args.machine)
    results = load_results(RESULTS_DIR, commit, args.machine) if commit else {}
    if not results:
        print(f"no asv results for {args.commit or 'any commit of HEAD'} under {RESULTS_DIR}", file=sys.stderr)
        return 2
    output = ROOT / args.output
    draw(commit, results, output, install=args.install and not args.no_install)
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
