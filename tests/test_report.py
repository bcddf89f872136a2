"""The report's timing plan (no GPU: benchmark and the rest are stand-ins that record what the report asks)."""
import pytest

from matmul_opt import report
from matmul_opt.api import BenchmarkResult


@pytest.fixture
def recorded(monkeypatch):
    """The calls the report makes, in order: ('rest', seconds) and ('benchmark', kernel, shape, warmup)."""
    calls = []

    def benchmark(kernel, M, N, K, warmup=3, repetitions=10):
        calls.append(("benchmark", kernel, (M, N, K), warmup))
        return BenchmarkResult(kernel, M, N, K, 2.0)  # every launch takes 2 ms

    monkeypatch.setattr(report, "benchmark", benchmark)
    monkeypatch.setattr(report.time, "sleep", lambda seconds: calls.append(("rest", seconds)))
    return calls


def test_every_timing_starts_after_the_rest(recorded):
    rows = report.time_all(["best", "cublas"], [(64, 64, 64), (128, 96, 32)], 10, 0.25)
    assert recorded == [("rest", 0.25), ("benchmark", "best", (64, 64, 64), 3),
                        ("rest", 0.25), ("benchmark", "cublas", (64, 64, 64), 3),
                        ("rest", 0.25), ("benchmark", "best", (128, 96, 32), 3),
                        ("rest", 0.25), ("benchmark", "cublas", (128, 96, 32), 3)]
    assert [(r["kernel"], r["ms"]) for r in rows] == [("best", 2.0), ("cublas", 2.0)] * 2


def test_a_sustained_timing_warms_up_for_the_seconds_asked_after_a_rest(recorded):
    rows = report.time_sustained(["naive", "wgmma_3xtf32"], [(4096, 4096, 4096)], 3.0, 10, 0.5)
    # one short timing gives the launch time (2 ms), so 3 s is 1500 warm-up launches; naive is left out
    assert recorded == [("benchmark", "wgmma_3xtf32", (4096, 4096, 4096), 1), ("rest", 0.5),
                        ("benchmark", "wgmma_3xtf32", (4096, 4096, 4096), 1500)]
    assert rows[0]["warmup_launches"] == 1500
    assert report.time_sustained(["best"], [(8, 8, 8)], 0.0, 10, 0.5)[0]["warmup_launches"] == 3  # at least 3


def test_the_sustained_table_gives_the_share_of_the_rested_figure():
    rested = [{"kernel": "wgmma_3xtf32", "M": 8192, "N": 8192, "K": 8192, "ms": 9.0, "gflops": 1.22e5}]
    sustained = [{"kernel": "wgmma_3xtf32", "M": 8192, "N": 8192, "K": 8192, "ms": 10.0, "gflops": 1.1e5,
                  "warmup_launches": 300},
                 {"kernel": "best", "M": 8192, "N": 8192, "K": 8192, "ms": 21.0, "gflops": 5.2e4,
                  "warmup_launches": 143}]
    lines = report.format_sustained(sustained, rested)
    assert lines[1].split() == ["8192x8192x8192", "wgmma_3xtf32", "10.0000", "110.00", "90.0", "300"]
    assert lines[2].split()[-2:] == ["-", "143"]  # no rested timing of best here


@pytest.mark.parametrize("option", [["--rest", "-1"], ["--sustained-seconds", "-0.5"]])
def test_negative_rests_and_warm_ups_are_refused_before_the_gpu(option, capsys):
    with pytest.raises(SystemExit):
        report.main(option)
    assert "must be >= 0" in capsys.readouterr().err
