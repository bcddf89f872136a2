"""The regression gate: compare two commits' committed asv results, which benchmarks got slower, which faster.

    python3 -m tools.regressions BASE HEAD [--threshold 0.10] [--machine NAME] [--results-dir results/asv]

prints a table of what is worse and better and exits 1 when any selected benchmark (default: track_kernel_ms, a
kernel time, where larger is worse) of the project's kernels is more than `threshold` slower in HEAD than in BASE,
2 when the two have no machine in common, 0 otherwise. Missing or failed values are reported, never fatal (unless
--strict). The cuBLAS kernels (cublas, cublas_tf32) are references, not the project's code: their changes are
listed apart, under REFERENCE, and never fail the check.

BASE and HEAD are git refs, each standing for the newest results its own tree holds (results.measured_commit:
results land in the commit after the one they measure), so `main~1 main` right after a results commit compares
those results with the ones before them; the report says first which commit's results stand for each ref when it
is not the ref's own commit. --exact compares the results recorded for the two commits themselves; a name that is
no commit here is taken as a measured commit's hash.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field

from .results import commit_of, load_results, measured_commit

DEFAULT_BENCHMARK = r"\.track_kernel_ms$"
DEFAULT_THRESHOLD = 0.10
# Kernels that are references, not the project's code: cuBLAS's timings move with the driver, the library version
# and the machine, not with this repository, so they are listed apart and never gate (a benchmark's first parameter
# is its kernel).
REFERENCE_KERNELS = ("cublas", "cublas_tf32")


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
    notes: list[str] = field(default_factory=list)  # printed under the table
    header: list[str] = field(default_factory=list)  # printed first, before the table
    references: tuple = REFERENCE_KERNELS
    # The reference kernels' rows, by the same classes (worse, better, unchanged, missing): listed, never gating.
    reference: dict = field(default_factory=lambda: {"worse": [], "better": [], "unchanged": [], "missing": []})

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
    references=REFERENCE_KERNELS,
) -> Comparison:
    """Classify every benchmark matching the regex `benchmark` (values where larger is worse, e.g. times).

    worse: head > base * (1 + threshold); better: head < base / (1 + threshold); exactly `threshold` is not worse.
    Rows whose first parameter (the kernel) is one of `references` go to comparison.reference instead, which
    never counts towards the exit status.
    """
    pattern = re.compile(benchmark)
    comparison = Comparison(base, head, threshold, references=tuple(references))
    base_results = load_results(results_dir, base, machine)
    head_results = load_results(results_dir, head, machine)
    for name, present in (("BASE", base_results), ("HEAD", head_results)):
        if not present:
            commit = base if name == "BASE" else head
            comparison.header.append(f"no results for {name} {commit[:8]} under {results_dir}")
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
                continue
            if ratio is None:
                kind = "missing"
            elif ratio > 1 + threshold:
                kind = "worse"
            elif ratio < 1 / (1 + threshold):
                kind = "better"
            else:
                kind = "unchanged"
            if row.params and str(row.params[0]) in comparison.references:
                comparison.reference[kind].append(row)
            else:
                getattr(comparison, kind).append(row)
    for machine_name in sorted(set(base_results) ^ set(head_results)):
        which = "BASE" if machine_name in base_results else "HEAD"
        comparison.notes.append(f"machine {machine_name} has results for {which} only; not compared")
    return comparison


def _format_value(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4g}"


def format_report(comparison: Comparison) -> str:
    reference = comparison.reference
    listed_references = reference["worse"] + reference["better"] + reference["missing"]
    references = ", ".join(comparison.references)
    lines = list(comparison.header)
    if comparison.references:
        lines.append(f"{references}: references, not gated (their changes are listed under REFERENCE and never "
                     "fail the check)")
    lines.append(
        f"BASE {comparison.base[:8]}  HEAD {comparison.head[:8]}  "
        f"threshold {comparison.threshold:.0%}  machines: {', '.join(comparison.machines) or 'none in common'}"
    )
    sections = (
        ("WORSE", comparison.worse),
        ("BETTER", comparison.better),
        ("MISSING (skipped, failed or absent in one of the two commits)", comparison.missing),
        (f"REFERENCE ({references}; not gated, not in the counts above)", listed_references),
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
    if any(reference.values()):
        lines.append(
            f"reference ({references}, not gated): {len(reference['worse'])} worse, {len(reference['better'])} "
            f"better, {len(reference['unchanged'])} unchanged, {len(reference['missing'])} missing"
        )
    lines.extend(f"note: {note}" for note in comparison.notes)
    return "\n".join(lines)


def _has_results(results_dir, commit: str, machine: str | None) -> bool:
    try:
        return bool(load_results(results_dir, commit, machine))
    except ValueError:
        return False


def resolve(ref: str, results_dir, exact: bool = False, side: str = "", machine: str | None = None) -> tuple[str, str]:
    """(the measured commit that stands for `ref`, a sentence saying which commit's results those are, beginning
    with `side`) for the command line."""
    commit = commit_of(ref)
    prefix = f"{side} " if side else ""
    if commit is None:
        return ref, f"{prefix}{ref}: no commit of this repository; taken as the hash of a measured commit"
    typed = ref if commit.startswith(ref.lower()) else f"{ref} ({commit[:8]})"
    if exact:
        return commit, f"{prefix}{typed}: comparing its own results (--exact)"
    try:
        measured = measured_commit(ref, results_dir)
    except (ValueError, OSError):  # results_dir outside this repository: no tree to look in
        return commit, f"{prefix}{typed}: comparing its own results"
    if measured is None:
        return commit, f"{prefix}{typed}: its tree holds no results; comparing its own"
    if measured == commit:
        return commit, f"{prefix}{typed}: comparing its own results"
    if _has_results(results_dir, commit, machine):
        return measured, (f"{prefix}{typed} has no results in its own tree (they were committed after it); comparing "
                          f"{measured[:8]}'s instead, the newest its tree holds (--exact compares {commit[:8]}'s own)")
    return measured, (f"{prefix}{typed} has no results; comparing {measured[:8]}'s instead, the newest its tree "
                      f"holds")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tools.regressions", description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="baseline commit (git ref or hash)")
    parser.add_argument("head", help="commit to check (git ref or hash)")
    parser.add_argument("--results-dir", default="results/asv")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD, help="allowed slowdown (0.10 = 10%%)")
    parser.add_argument("--benchmark", default=DEFAULT_BENCHMARK, help="regex of benchmarks where larger is worse")
    parser.add_argument("--machine", default=None, help="compare only this machine's results")
    parser.add_argument("--strict", action="store_true", help="also fail when a value is missing in either commit")
    parser.add_argument("--exact", action="store_true",
                        help="compare the results of BASE and HEAD themselves, not the newest results in their trees")
    args = parser.parse_args(argv)
    (base, base_note), (head, head_note) = (resolve(ref, args.results_dir, args.exact, side, args.machine)
                                            for ref, side in ((args.base, "BASE"), (args.head, "HEAD")))
    try:
        comparison = compare(args.results_dir, base, head, benchmark=args.benchmark, threshold=args.threshold,
                             machine=args.machine)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    comparison.header[:0] = [base_note, head_note]
    if base == head:
        comparison.header.append("BASE and HEAD stand for the same results: nothing was measured between them")
    print(format_report(comparison))
    return comparison.exit_code(strict=args.strict)


if __name__ == "__main__":
    sys.exit(main())
