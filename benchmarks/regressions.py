"""Compare two commits' committed asv results: which benchmarks got slower, which faster.

asv writes one JSON file per (machine, commit, environment): results/asv/<machine>/<hash[:8]>-<env>.json, with
"commit_hash" and "results" = {benchmark name: [values, params, version, ...]} whose columns are named by
"result_columns". A parameterised benchmark's values are flat, in itertools.product order of its params (each param
value stored as its repr). A skipped value is NaN, a failed one null.

    python -m benchmarks.regressions BASE HEAD [--threshold 0.10] [--machine NAME] [--results-dir results/asv]

prints a table of what is worse and better and exits 1 when any selected benchmark (default: track_kernel_ms, a
kernel time, where larger is worse) is more than `threshold` slower in HEAD than in BASE, 2 when the two commits
have no machine in common, 0 otherwise. Missing or failed values are reported, never fatal (unless --strict).
"""
from __future__ import annotations

import argparse
import ast
import itertools
import json
import math
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_BENCHMARK = r"\.track_kernel_ms$"
DEFAULT_THRESHOLD = 0.10

Key = tuple  # (benchmark name, (param value, ...))


def _param_label(value: str) -> str:
    try:
        return str(ast.literal_eval(value))  # "'naive'" -> naive
    except (ValueError, SyntaxError):
        return value


def _number(value):
    """A finite float, or None for a skipped (NaN), failed (null) or otherwise unusable value."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def read_result_file(path: Path) -> tuple[str, dict[Key, float | None]]:
    """(commit hash, {(benchmark, params): value}) from one asv result file (asv 0.6, result file version 2)."""
    data = json.loads(Path(path).read_text())  # asv writes NaN literally; Python's json reads it
    columns = data.get("result_columns") or ["result", "params"]
    result_column, params_column = columns.index("result"), columns.index("params")
    values: dict[Key, float | None] = {}
    for name, row in (data.get("results") or {}).items():
        result = row[result_column] if len(row) > result_column else None
        params = row[params_column] if len(row) > params_column else []
        if not params:
            values[(name, ())] = _number(result[0] if isinstance(result, list) and result else result)
            continue
        combos = list(itertools.product(*[[_param_label(p) for p in axis] for axis in params]))
        result = result if isinstance(result, list) else [None] * len(combos)
        for combo, value in itertools.zip_longest(combos, result):
            if combo is not None:
                values[(name, combo)] = _number(value)
    return data.get("commit_hash", ""), values


def load_results(results_dir, commit: str, machine: str | None = None) -> dict[str, dict[Key, float | None]]:
    """{machine: {(benchmark, params): value}} for `commit` (a full hash or a prefix of at least 7 characters).

    Results of several environments for one machine are merged; a usable value wins over a missing one.
    """
    commit = commit.lower()
    if len(commit) < 7 or not re.fullmatch(r"[0-9a-f]+", commit):
        raise ValueError(f"need a commit hash (at least 7 hex digits), got {commit!r}")
    found: dict[str, dict[Key, float | None]] = {}
    for machine_dir in sorted(Path(results_dir).iterdir()) if Path(results_dir).is_dir() else []:
        if not machine_dir.is_dir() or (machine and machine_dir.name != machine):
            continue
        for path in sorted(machine_dir.glob(f"{commit[:8]}-*.json")):
            file_commit, values = read_result_file(path)
            if not file_commit.lower().startswith(commit):
                continue
            merged = found.setdefault(machine_dir.name, {})
            for key, value in values.items():
                if merged.get(key) is None:
                    merged[key] = value
    return found


@dataclass
class Row:
    machine: str
    benchmark: str
    params: tuple
    base: float | None
    head: float | None

    @property
    def ratio(self) -> float | None:
        if self.base is None or self.head is None or self.base <= 0:
            return None
        return self.head / self.base

    @property
    def label(self) -> str:
        name = self.benchmark.rsplit(".", 1)[-1]
        return f"{name}({', '.join(map(str, self.params))})" if self.params else name


@dataclass
class Comparison:
    base: str
    head: str
    threshold: float
    worse: list[Row] = field(default_factory=list)
    better: list[Row] = field(default_factory=list)
    unchanged: list[Row] = field(default_factory=list)
    missing: list[Row] = field(default_factory=list)  # a usable value in one commit only
    unavailable: int = 0  # no usable value in either commit (e.g. skipped by design in both): counted only
    machines: list[str] = field(default_factory=list)  # machines with results for both commits
    notes: list[str] = field(default_factory=list)

    def exit_code(self, strict: bool = False) -> int:
        if not self.machines:
            return 2
        if self.worse or (strict and self.missing):
            return 1
        return 0


def compare(
    results_dir,
    base: str,
    head: str,
    benchmark: str = DEFAULT_BENCHMARK,
    threshold: float = DEFAULT_THRESHOLD,
    machine: str | None = None,
) -> Comparison:
    """Classify every benchmark matching the regex `benchmark` (values where larger is worse, e.g. times).

    worse: head > base * (1 + threshold); better: head < base / (1 + threshold); exactly `threshold` is not worse.
    """
    pattern = re.compile(benchmark)
    comparison = Comparison(base, head, threshold)
    base_results = load_results(results_dir, base, machine)
    head_results = load_results(results_dir, head, machine)
    for name, present in (("BASE", base_results), ("HEAD", head_results)):
        if not present:
            commit = base if name == "BASE" else head
            comparison.notes.append(f"no results for {name} {commit[:8]} under {results_dir}")
    for machine_name in sorted(set(base_results) & set(head_results)):
        comparison.machines.append(machine_name)
        before, after = base_results[machine_name], head_results[machine_name]
        for key in sorted(set(before) | set(after), key=lambda k: (k[0], tuple(map(str, k[1])))):
            if not pattern.search(key[0]):
                continue
            row = Row(machine_name, key[0], key[1], before.get(key), after.get(key))
            ratio = row.ratio
            if row.base is None and row.head is None:
                comparison.unavailable += 1
            elif ratio is None:
                comparison.missing.append(row)
            elif ratio > 1 + threshold:
                comparison.worse.append(row)
            elif ratio < 1 / (1 + threshold):
                comparison.better.append(row)
            else:
                comparison.unchanged.append(row)
    for machine_name in sorted(set(base_results) ^ set(head_results)):
        which = "BASE" if machine_name in base_results else "HEAD"
        comparison.notes.append(f"machine {machine_name} has results for {which} only; not compared")
    return comparison


def _format_value(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4g}"


def format_report(comparison: Comparison) -> str:
    lines = [
        f"BASE {comparison.base[:8]}  HEAD {comparison.head[:8]}  "
        f"threshold {comparison.threshold:.0%}  machines: {', '.join(comparison.machines) or 'none in common'}"
    ]
    sections = (
        ("WORSE", comparison.worse),
        ("BETTER", comparison.better),
        ("MISSING (skipped, failed or absent in one of the two commits)", comparison.missing),
    )
    for title, rows in sections:
        if not rows:
            continue
        lines.append("")
        lines.append(f"{title}: {len(rows)}")
        width = max(len(row.label) for row in rows)
        lines.append(f"  {'machine':<14} {'benchmark':<{width}} {'BASE':>10} {'HEAD':>10} {'HEAD/BASE':>10}")
        for row in sorted(rows, key=lambda r: -(r.ratio or 0)):
            ratio = "" if row.ratio is None else f"{row.ratio:.3f}"
            lines.append(
                f"  {row.machine:<14} {row.label:<{width}} {_format_value(row.base):>10} "
                f"{_format_value(row.head):>10} {ratio:>10}"
            )
    lines.append("")
    lines.append(
        f"{len(comparison.worse)} worse, {len(comparison.better)} better, {len(comparison.unchanged)} unchanged, "
        f"{len(comparison.missing)} missing, {comparison.unavailable} n/a in both"
    )
    lines.extend(f"note: {note}" for note in comparison.notes)
    return "\n".join(lines)


def resolve_commit(ref: str, repo=".") -> str:
    """A git ref (HEAD, main~3, a short hash) as a full hash; read-only."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
            cwd=repo, capture_output=True, text=True, check=True,
        )
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ref  # not resolvable here: use it as a hash prefix


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="baseline commit (git ref or hash)")
    parser.add_argument("head", help="commit to check (git ref or hash)")
    parser.add_argument("--results-dir", default="results/asv")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD, help="allowed slowdown (0.10 = 10%%)")
    parser.add_argument("--benchmark", default=DEFAULT_BENCHMARK, help="regex of benchmarks where larger is worse")
    parser.add_argument("--machine", default=None, help="compare only this machine's results")
    parser.add_argument("--strict", action="store_true", help="also fail when a value is missing in either commit")
    args = parser.parse_args(argv)
    try:
        comparison = compare(
            args.results_dir, resolve_commit(args.base), resolve_commit(args.head),
            benchmark=args.benchmark, threshold=args.threshold, machine=args.machine,
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(format_report(comparison))
    return comparison.exit_code(strict=args.strict)


if __name__ == "__main__":
    sys.exit(main())
