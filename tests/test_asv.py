"""CPU tier: the asv configuration and benchmark suite load and pass `asv check` (no GPU needed), and the
benchmark module lists kernels and shapes without touching the GPU."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

needs_asv = pytest.mark.skipif(importlib.util.find_spec("asv") is None,
                               reason="asv is not installed (pip install 'asv>=0.6,<0.7')")


@needs_asv
def test_asv_check_passes():
    run = subprocess.run([sys.executable, "-m", "asv", "check", "--python=same"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "No problems found" in output, output


def test_suite_covers_every_registered_kernel_and_shape():
    from benchmarks import bench_kernels

    kernels, shapes = bench_kernels.Sgemm.params
    assert kernels == bench_kernels.registered_kernels()
    assert set(kernels) >= set(bench_kernels._kernels_from_registry_source()) - {"unavailable"}
    assert {"512", "1024", "2048", "4096", "8192"} <= set(shapes)
    for shape in shapes:
        M, N, K = bench_kernels.parse_shape(shape)
        if "x" in shape:  # the ragged shapes: not square, not tile multiples
            assert len({M, N, K}) == 3 and all(d % 2 == 1 for d in (M, N, K))
    units = {name: getattr(bench_kernels.Sgemm, name).unit for name in dir(bench_kernels.Sgemm)
             if name.startswith("track_")}
    assert units == {"track_gflops": "GFLOPS", "track_kernel_ms": "ms",
                     "track_pct_of_cublas": "%", "track_pct_of_fp32_peak": "%"}


def test_registry_source_fallback_matches_the_library():
    from benchmarks import bench_kernels

    import matmul_opt

    names = bench_kernels._kernels_from_registry_source()
    assert names, "cuda/kernels.def lists no kernels"
    try:
        registered = matmul_opt.kernel_names()
    except matmul_opt.LibraryNotFoundError as exc:  # library not built: the fallback is what discovery uses
        pytest.skip(f"libmatmul not loadable: {exc}")
    assert registered == names


def test_setup_skips_without_a_gpu(tmp_path):
    from benchmarks import bench_kernels

    probe = {"dir": str(tmp_path), "skip": "no usable GPU: test", "device": None, "fp32_peak_gflops": 0.0,
             "available": {}}
    with pytest.raises(NotImplementedError):
        bench_kernels.Sgemm().setup(probe, "naive", "512")
    probe = dict(probe, skip=None, available={"naive": True})
    with pytest.raises(NotImplementedError, match="too slow"):
        bench_kernels.Sgemm().setup(probe, "naive", "8192")


def test_measurements_are_shared_through_the_run_directory(tmp_path, monkeypatch):
    from benchmarks import bench_kernels

    calls = []

    def fake_benchmark(kernel, M, N, K, warmup, repetitions):
        calls.append((kernel, M, N, K))
        return bench_kernels.matmul_opt.BenchmarkResult(kernel, M, N, K, 2.0 if kernel == "cublas" else 4.0)

    monkeypatch.setattr(bench_kernels.matmul_opt, "benchmark", fake_benchmark)
    probe = {"dir": str(tmp_path), "skip": None, "device": "fake", "fp32_peak_gflops": 1000.0,
             "available": {"advanced": True, "cublas": True}}
    values = {}
    for track in ("track_gflops", "track_kernel_ms", "track_pct_of_cublas", "track_pct_of_fp32_peak"):
        suite = bench_kernels.Sgemm()  # a fresh instance per track, as asv's fresh processes have
        suite.setup(probe, "advanced", "1025x1023x1021")
        values[track] = getattr(suite, track)(probe, "advanced", "1025x1023x1021")
    assert calls == [("advanced", 1025, 1023, 1021), ("cublas", 1025, 1023, 1021)]  # each measured once
    assert values["track_kernel_ms"] == 4.0
    assert values["track_pct_of_cublas"] == 50.0
    assert values["track_gflops"] == pytest.approx(2 * 1025 * 1023 * 1021 / 4e6)
    assert values["track_pct_of_fp32_peak"] == pytest.approx(values["track_gflops"] / 10)


def test_accuracy_track_skips_without_a_gpu(tmp_path):
    from benchmarks import bench_kernels

    probe = {"dir": str(tmp_path), "skip": "no usable GPU: test", "device": None, "fp32_peak_gflops": 0.0,
             "available": {}}
    with pytest.raises(NotImplementedError):
        bench_kernels.Accuracy().setup(probe, "naive")
    assert bench_kernels.Accuracy.track_relative_error.unit == "relative error"
    assert bench_kernels.Accuracy.params == [bench_kernels.registered_kernels()]


@needs_asv
def test_the_published_site_lists_no_gflops_gain_as_a_regression(tmp_path):
    """asv reads every increase as a regression; asv.conf.json keeps the higher-is-better tracks out of it, so the
    site built from the committed results shows only kernel times (and errors) that went up."""
    run = subprocess.run([sys.executable, "-m", "asv", "publish", "--html-dir", str(tmp_path / "html")], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    listed = {entry[0].split("(")[0] for entry in json.loads((tmp_path / "html" / "regressions.json").read_text())
              ["regressions"]}
    higher_is_better = {f"bench_kernels.Sgemm.{name}" for name in ("track_gflops", "track_pct_of_cublas",
                                                                    "track_pct_of_fp32_peak")}
    assert not listed & higher_is_better, listed
