"""CPU tier: the reader of asv result files (tools/results.py) and the regression check over them
(tools/regressions.py), on synthetic results and a throwaway git repository."""
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tools import regressions, results  # noqa: E402

BASE = "a" * 40
HEAD = "b" * 40
KERNELS = ["naive", "advanced"]
SHAPES = ["1024", "1025x1023x1021"]
COLUMNS = ["result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b",
           "stats_q_25", "stats_q_75", "stats_number", "stats_repeat", "samples", "profile"]


def write_results(results_dir: Path, commit: str, times: dict, machine="nvidia-h200", env="existing-py_python",
                  kernels=KERNELS):
    """An asv 0.6 result file; times maps (kernel, shape) to ms (None: failed, NaN: skipped, absent: NaN)."""
    flat = [times.get((kernel, shape), math.nan) for kernel in kernels for shape in SHAPES]
    params = [[repr(k) for k in kernels], [repr(s) for s in SHAPES]]
    data = {
        "commit_hash": commit,
        "env_name": env,
        "date": 0,
        "params": {"machine": machine},
        "python": "3.11",
        "requirements": {},
        "env_vars": {},
        "result_columns": COLUMNS,
        "results": {
            "bench_kernels.Sgemm.track_kernel_ms": [flat, params, "v1", 0, 1.0],
            # A larger-is-better metric that must not be judged as a time.
            "bench_kernels.Sgemm.track_gflops": [[1.0 / t if t else None for t in flat], params, "v1", 0, 1.0],
        },
        "durations": {},
        "version": 2,
    }
    path = results_dir / machine / f"{commit[:8]}-{env}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))  # json writes NaN literally, as asv does
    return path


BASE_TIMES = {("naive", "1024"): 10.0, ("naive", "1025x1023x1021"): 11.0,
              ("advanced", "1024"): 1.0, ("advanced", "1025x1023x1021"): 1.2}


def test_a_slowdown_of_more_than_ten_percent_fails(tmp_path):
    write_results(tmp_path, BASE, BASE_TIMES)
    write_results(tmp_path, HEAD, {**BASE_TIMES, ("advanced", "1024"): 1.11})
    comparison = regressions.compare(tmp_path, BASE, HEAD)
    assert [(row.params, row.base, row.head) for row in comparison.worse] == [(("advanced", "1024"), 1.0, 1.11)]
    assert comparison.exit_code() == 1
    assert "WORSE: 1" in regressions.format_report(comparison)


def test_slowdowns_up_to_ten_percent_pass_and_speedups_are_reported(tmp_path):
    write_results(tmp_path, BASE, BASE_TIMES)
    head = {("naive", "1024"): 11.0, ("naive", "1025x1023x1021"): 11.0 * 1.09,  # exactly 10% and 9% slower
            ("advanced", "1024"): 0.5, ("advanced", "1025x1023x1021"): 1.2}       # 2x faster, unchanged
    write_results(tmp_path, HEAD, head)
    comparison = regressions.compare(tmp_path, BASE, HEAD)
    assert comparison.worse == []
    assert [row.params for row in comparison.better] == [("advanced", "1024")]
    assert len(comparison.unchanged) == 3
    assert comparison.exit_code() == 0
    assert "BETTER: 1" in regressions.format_report(comparison)


def test_missing_skipped_and_failed_results_are_reported_not_fatal(tmp_path):
    write_results(tmp_path, BASE, BASE_TIMES)
    head = {("naive", "1024"): None, ("advanced", "1024"): 1.0}  # failed; the ragged shapes absent (NaN)
    write_results(tmp_path, HEAD, head)
    comparison = regressions.compare(tmp_path, BASE, HEAD)
    assert sorted(row.params for row in comparison.missing) == [
        ("advanced", "1025x1023x1021"), ("naive", "1024"), ("naive", "1025x1023x1021")]
    assert comparison.exit_code() == 0
    assert comparison.exit_code(strict=True) == 1
    report = regressions.format_report(comparison)
    assert "MISSING" in report and "n/a" in report


def test_values_unavailable_in_both_commits_are_counted_not_listed(tmp_path):
    times = {k: v for k, v in BASE_TIMES.items() if k != ("naive", "1024")}  # skipped (NaN) in both
    write_results(tmp_path, BASE, times)
    write_results(tmp_path, HEAD, times)
    comparison = regressions.compare(tmp_path, BASE, HEAD)
    assert comparison.missing == [] and comparison.unavailable == 1 and len(comparison.unchanged) == 3
    assert "1 n/a in both" in regressions.format_report(comparison)


def test_a_benchmark_absent_from_one_commit_is_reported(tmp_path):
    write_results(tmp_path, BASE, BASE_TIMES)
    path = write_results(tmp_path, HEAD, BASE_TIMES)
    data = json.loads(path.read_text())
    del data["results"]["bench_kernels.Sgemm.track_kernel_ms"]
    path.write_text(json.dumps(data))
    comparison = regressions.compare(tmp_path, BASE, HEAD)
    assert len(comparison.missing) == 4 and all(row.head is None for row in comparison.missing)
    assert comparison.exit_code() == 0


def test_commits_without_results_or_common_machine_exit_2(tmp_path):
    write_results(tmp_path, BASE, BASE_TIMES, machine="nvidia-h200")
    write_results(tmp_path, HEAD, BASE_TIMES, machine="nvidia-a100")
    comparison = regressions.compare(tmp_path, BASE, HEAD)
    assert comparison.machines == [] and comparison.exit_code() == 2
    assert any("nvidia-a100" in note for note in comparison.notes)
    assert regressions.compare(tmp_path, BASE, "c" * 40).exit_code() == 2


def test_machines_are_compared_separately_and_can_be_selected(tmp_path):
    for machine, factor in (("nvidia-h200", 1.0), ("nvidia-a100", 1.5)):
        write_results(tmp_path, BASE, BASE_TIMES, machine=machine)
        write_results(tmp_path, HEAD, {k: v * factor for k, v in BASE_TIMES.items()}, machine=machine)
    assert regressions.compare(tmp_path, BASE, HEAD).exit_code() == 1
    assert {row.machine for row in regressions.compare(tmp_path, BASE, HEAD).worse} == {"nvidia-a100"}
    assert regressions.compare(tmp_path, BASE, HEAD, machine="nvidia-h200").exit_code() == 0


def test_command_line_exit_status(tmp_path, capsys):
    write_results(tmp_path, BASE, BASE_TIMES)
    write_results(tmp_path, HEAD, {k: v * 1.2 for k, v in BASE_TIMES.items()})
    assert regressions.main([BASE, HEAD, "--results-dir", str(tmp_path)]) == 1
    assert "4 worse" in capsys.readouterr().out
    assert regressions.main([BASE, HEAD, "--results-dir", str(tmp_path), "--threshold", "0.25"]) == 0
    assert regressions.main(["not-a-commit", HEAD, "--results-dir", str(tmp_path)]) == 2


WITH_CUBLAS = KERNELS + ["cublas", "cublas_tf32"]
CUBLAS_TIMES = {**BASE_TIMES, ("cublas", "1024"): 0.9, ("cublas", "1025x1023x1021"): 1.0,
                ("cublas_tf32", "1024"): 0.3, ("cublas_tf32", "1025x1023x1021"): 0.4}


def test_cublas_is_a_reference_listed_apart_and_never_gating(tmp_path, capsys):
    """cuBLAS's own times move with its library and the machine, not with this repository: a 40% slower cublas, a
    failed cublas_tf32 and a faster one are listed under REFERENCE, and the check passes, --strict included."""
    write_results(tmp_path, BASE, CUBLAS_TIMES, kernels=WITH_CUBLAS)
    head = {**CUBLAS_TIMES, ("cublas", "1024"): 0.9 * 1.4, ("cublas_tf32", "1024"): None,
            ("cublas_tf32", "1025x1023x1021"): 0.2}
    write_results(tmp_path, HEAD, head, kernels=WITH_CUBLAS)
    comparison = regressions.compare(tmp_path, BASE, HEAD)
    assert comparison.worse == comparison.better == comparison.missing == [] and len(comparison.unchanged) == 4
    assert [row.params for row in comparison.reference["worse"]] == [("cublas", "1024")]
    assert [row.params for row in comparison.reference["better"]] == [("cublas_tf32", "1025x1023x1021")]
    assert [row.params for row in comparison.reference["missing"]] == [("cublas_tf32", "1024")]
    assert comparison.exit_code() == 0 and comparison.exit_code(strict=True) == 0
    report = regressions.format_report(comparison)
    assert "REFERENCE (cublas, cublas_tf32; not gated" in report and "WORSE" not in report
    assert "reference (cublas, cublas_tf32, not gated): 1 worse, 1 better, 1 unchanged, 1 missing" in report
    # The output says up front that cuBLAS is not gated.
    assert report.index("references, not gated") < report.index("BASE aaaaaaaa  HEAD bbbbbbbb")
    assert regressions.main([BASE, HEAD, "--results-dir", str(tmp_path), "--strict"]) == 0
    assert "0 worse" in capsys.readouterr().out
    # Asked to, the gate covers them as before.
    assert regressions.compare(tmp_path, BASE, HEAD, references=()).exit_code() == 1


def test_a_project_kernel_still_fails_beside_cublas(tmp_path):
    write_results(tmp_path, BASE, CUBLAS_TIMES, kernels=WITH_CUBLAS)
    write_results(tmp_path, HEAD, {**CUBLAS_TIMES, ("advanced", "1024"): 1.5, ("cublas", "1024"): 2.0},
                  kernels=WITH_CUBLAS)
    comparison = regressions.compare(tmp_path, BASE, HEAD)
    assert [row.params for row in comparison.worse] == [("advanced", "1024")]
    assert [row.params for row in comparison.reference["worse"]] == [("cublas", "1024")]
    assert comparison.exit_code() == 1


def test_no_results_is_said_before_the_table(tmp_path, capsys):
    write_results(tmp_path, BASE, BASE_TIMES)
    assert regressions.main([BASE, "c" * 40, "--results-dir", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert out.index(f"no results for HEAD cccccccc under {tmp_path}") < out.index("BASE aaaaaaaa  HEAD cccccccc")


@pytest.mark.parametrize("value, expected", [(1.5, 1.5), (math.nan, None), (None, None), (math.inf, None)])
def test_unusable_values_become_none(value, expected):
    assert results._number(value) == expected


def git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_ref_stands_for_the_newest_results_its_tree_holds(tmp_path):
    """Results land in the commit after the one they measure: code C1, results of C1, code C2, results of C2.
    `main~1 main` then compares C1's results with C2's, as docs/benchmarking.md's example says."""
    repo = tmp_path / "repo"
    results_dir = repo / "results" / "asv"
    results_dir.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "test@example.com")
    git(repo, "config", "user.name", "test")
    code = []
    for step, factor in ((1, 1.0), (2, 1.2)):
        (repo / "code.txt").write_text(f"version {step}\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"code {step}")
        code.append(git(repo, "rev-parse", "HEAD"))
        write_results(results_dir, code[-1], {k: v * factor for k, v in BASE_TIMES.items()})
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"results of code {step}")
    assert results.measured_commit("main", results_dir, repo) == code[1]
    assert results.measured_commit("main~1", results_dir, repo) == code[0]  # its tree lacks code 2's results
    assert results.measured_commit("main~3", results_dir, repo) is None  # code 1: no results in its tree yet
    run = subprocess.run([sys.executable, "-m", "tools.regressions", "main~1", "main", "--results-dir",
                          str(results_dir)], cwd=repo, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent)))
    assert run.returncode == 1, run.stdout + run.stderr  # every time 20% slower
    assert "4 worse" in run.stdout and code[0][:8] in run.stdout and code[1][:8] in run.stdout
    # Both refs stand for another commit's results, which the report says first, before the table, in plain words.
    lines = run.stdout.splitlines()
    table = next(i for i, line in enumerate(lines) if line.startswith(f"BASE {code[0][:8]}  HEAD {code[1][:8]}"))
    results_commit = git(repo, "rev-parse", "main")
    assert lines[0] == (f"BASE main~1 ({code[1][:8]}) has no results in its own tree (they were committed after it); "
                        f"comparing {code[0][:8]}'s instead, the newest its tree holds (--exact compares "
                        f"{code[1][:8]}'s own)")
    assert lines[1] == (f"HEAD main ({results_commit[:8]}) has no results; comparing {code[1][:8]}'s instead, the "
                        "newest its tree holds")
    assert table > 1
    exact = subprocess.run([sys.executable, "-m", "tools.regressions", code[0][:7], code[1], "--exact",
                            "--results-dir", str(results_dir)], cwd=repo, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent)))
    assert exact.returncode == 1, exact.stdout + exact.stderr
    assert exact.stdout.splitlines()[:2] == [f"BASE {code[0][:7]}: comparing its own results (--exact)",
                                             f"HEAD {code[1]}: comparing its own results (--exact)"]
