"""The shape grid (matmul_opt.shape_grid): `best`, the dispatchers per accuracy and cuBLAS on 48 shapes in six
classes, with each shape's roofline. Its own suite, apart from bench_kernels.Sgemm, so that the history of Sgemm's
shapes stays comparable.

Measurements are shared between tracks through the run's cache directory, as in bench_kernels (its docstring says
how); setup_cache also measures the HBM read bandwidth once per run, which the roofline track divides by.
"""
from __future__ import annotations

try:  # first: bench_kernels finds matmul_opt in a checkout that is not pip-installed
    from .bench_kernels import BASELINE, _OnDevice, measure, pct_of_baseline
except ImportError:  # imported as a top-level module
    from bench_kernels import BASELINE, _OnDevice, measure, pct_of_baseline

import matmul_opt  # noqa: E402
from matmul_opt.shape_grid import GRID, roofline_ms  # noqa: E402

# best and cuBLAS fp32, and the dispatchers per accuracy beside cuBLAS TF32 (best_fp32_accurate's baseline is
# cuBLAS fp32).
KERNELS = ["best", BASELINE, "best_tf32", "best_fp32_accurate", "cublas_tf32"]
SHAPES = {f"{shape.klass}:{shape.name}": shape for shape in GRID}


class GridSgemm(_OnDevice):
    """C = A @ B on the shape grid, device-resident random inputs in [-1, 1]."""

    params = [KERNELS, list(SHAPES)]
    param_names = ["kernel", "shape"]

    def setup_cache(self):
        probe = super().setup_cache()
        if not probe["skip"]:
            probe["hbm_gb_per_s"] = matmul_opt.benchmark_read_bandwidth()
        return probe

    def setup(self, probe, kernel, shape):
        self.require(probe, kernel)
        self.result = measure(probe["dir"], kernel, SHAPES[shape].name)

    def track_kernel_ms(self, probe, kernel, shape):
        """Median kernel time in milliseconds (the regression signal)."""
        return self.result["ms"]

    track_kernel_ms.unit = "ms"

    def track_pct_of_cublas(self, probe, kernel, shape):
        """100 * cuBLAS time / kernel time, both from this run (> 100: faster than cuBLAS fp32)."""
        return pct_of_baseline(probe, kernel, SHAPES[shape].name, self.result)

    track_pct_of_cublas.unit = "%"

    def track_pct_of_roofline(self, probe, kernel, shape):
        """100 * the shape's floor / kernel time: max(FLOPs / FP32 peak, bytes / the HBM read bandwidth measured in
        this run)."""
        s = SHAPES[shape]
        return 100.0 * roofline_ms(s.M, s.N, s.K, probe["fp32_peak_gflops"], probe["hbm_gb_per_s"]) / self.result["ms"]

    track_pct_of_roofline.unit = "%"


