"""The one reader of committed asv results, for the regression gate (regressions.py) and the graph (graph.py).

asv writes one JSON file per (machine, commit, environment): results/asv/<machine>/<hash[:8]>-<env>.json, with
"commit_hash" and "results" = {benchmark name: [values, params, version, ...]} whose columns are named by
"result_columns". A parameterised benchmark's values are flat, in itertools.product order of its params (each
param value stored as its repr). A skipped value is NaN, a failed one null.

Results are committed in the commit after the one they measure (asv records a commit hash, which exists only once
the measured code is committed). So a git ref stands for the newest measurement its own tree holds:
`measured_commit("main~1")` is the newest commit in main~1's history whose results main~1's tree contains.
"""
from __future__ import annotations

import ast
import itertools
import json
import math
import re
import subprocess
from pathlib import Path

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


def _git(repo, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def commit_of(ref: str, repo=".") -> str | None:
    """The full hash of git ref `ref`, or None when it names no commit of the repository at `repo`."""
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def measured_commit(ref: str, results_dir="results/asv", repo=".") -> str | None:
    """The commit whose results stand for git ref `ref`: the newest commit of ref's history that ref's own tree
    holds results for (under results_dir, relative to the repository). None when its tree holds none."""
    commit = commit_of(ref, repo)
    if commit is None:
        return None
    root = Path(_git(repo, "rev-parse", "--show-toplevel").strip())
    prefix = Path(results_dir).resolve().relative_to(root).as_posix()
    names = _git(repo, "ls-tree", "-r", "--name-only", commit, "--", prefix).split()
    measured = {Path(name).name.split("-", 1)[0] for name in names if name.endswith(".json")}
    for candidate in _git(repo, "rev-list", commit).split():
        if candidate[:8] in measured:
            return candidate
    return None
