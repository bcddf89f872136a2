"""Every registered SGEMM kernel at every benchmark shape: GFLOPS, kernel time, % of cuBLAS, % of FP32 peak; and
every kernel's relative error against float64 (Accuracy), held to the tolerance of its arithmetic.

The kernel list is read from the C registry (matmul_opt.kernels()) when asv imports this module, so a kernel added
to cuda/kernels.def is benchmarked with no edit here. Listing the registry only loads libmatmul.so; nothing here
initialises CUDA at import time (asv's forkserver imports this module once and forks every benchmark from it, and a
process that has initialised CUDA must not fork).

One measurement, four tracks. asv runs every (benchmark, parameter) pair in a fresh process, so a module-level
cache would not survive from track_gflops to track_kernel_ms. Instead `setup_cache` (run once per `asv run`, in a
directory that asv keeps for the whole run and makes the working directory of every benchmark process) probes the
device, and each (kernel, shape) is measured by the first track that needs it and stored there as a small JSON file
that the other tracks read. cuBLAS's time for a shape, needed by "% of cuBLAS", is stored the same way, so it is
measured once per run and comes from the same run as the kernel it is compared with.

Times come from matmul_opt.benchmark: the median of `REPETITIONS` rounds timed with CUDA events inside the C
helper (each round launches the kernel back to back for about a millisecond), after `WARMUP` untimed launches.
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

try:
    import matmul_opt
except ImportError:  # `asv run --python=same` on a checkout that is not pip-installed: use it in place
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import matmul_opt

import numpy as np  # noqa: E402

from matmul_opt.accuracy import error_scale, relative_error, tolerance  # noqa: E402
from matmul_opt.report import SLOW_KERNELS, parse_shape  # noqa: E402  (parse_shape: '4096' or 'MxNxK')

try:  # asv's "skipped" marker for a benchmark body (setup() may raise plain NotImplementedError)
    from asv_runner.benchmarks.mark import SkipNotImplemented
except ImportError:  # imported outside asv (tests, a REPL)
    SkipNotImplemented = NotImplementedError

WARMUP = 2
REPETITIONS = 5

# Square sizes, then two ragged shapes ("MxNxK"); each ragged shape sits next to a square size so that the gap
# between them is the price of the edges:
#   1025x1023x1021  next to 1024. All three dimensions odd (the timing helper pads device rows to 4 floats, as the
#                   host path does, so this measures ragged edge tiles); M = 8*128 + 1 leaves a single live row in
#                   the last 128-row block tile
#                   (the worst partial tile), N is one short of a tile multiple, K % 8 = 5 exercises the K tail.
#   8191x2049x4095  the same FLOP count as 4096^3 (within 0.1%) but a 4:1 rectangle: M one short of 64 tiles of
#                   128, N = 16*128 + 1 (a nearly empty last block column, so wave quantisation shows), K odd.
SHAPES = ["512", "1024", "2048", "4096", "8192", "1025x1023x1021", "8191x2049x4095"]

SLOW_SKIPPED_SHAPES = {"8192"}

BASELINE = "cublas"


def _kernels_from_registry_source() -> list[str]:
    """Kernel names read from cuda/kernels.def, for when the library cannot be loaded (not built yet)."""
    source = Path(__file__).resolve().parent.parent / "cuda" / "kernels.def"
    try:
        text = source.read_text()
    except OSError:
        return []
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.findall(r"^\s*MM_KERNEL(?:_ALL_OPS)?\(\s*(\w+)\s*,", text, flags=re.M)


def registered_kernels() -> list[str]:
    """The registry's kernel names; never raises, so asv can always discover (and `asv check`) the suite."""
    try:
        return matmul_opt.kernel_names()
    except Exception as exc:  # library missing, not loadable, or from another version of the C API
        names = _kernels_from_registry_source()
        print(f"bench_kernels: cannot list kernels from libmatmul ({exc}); using cuda/kernels.def", file=sys.stderr)
        # A placeholder keeps the parameter grid non-empty; its setup skips with the reason.
        return names or ["unavailable"]


KERNELS = registered_kernels()


def probe_device(cache_dir: str) -> dict:
    """What every benchmark process needs to know about the device, queried once per run."""
    probe = {"dir": cache_dir, "skip": None, "device": None, "fp32_peak_gflops": 0.0, "available": {}}
    try:
        info = matmul_opt.device_info()
        probe["device"] = info.name
        probe["fp32_peak_gflops"] = info.fp32_peak_gflops
        for kernel in KERNELS:
            try:
                probe["available"][kernel] = matmul_opt.kernel_available(kernel)
            except ValueError:  # not in this build's registry
                probe["available"][kernel] = False
    except (matmul_opt.NoDeviceError, matmul_opt.LibraryNotFoundError) as exc:
        probe["skip"] = f"no usable GPU: {exc}"
    return probe


def measure(cache_dir: str, kernel: str, shape: str) -> dict:
    """{'ms', 'gflops'} of `kernel` at `shape`, measured once per run and shared through `cache_dir`.

    Raises NotImplementedError when the kernel cannot run at this shape here (unavailable, or out of device memory);
    such outcomes are stored too. Other failures propagate (asv reports the benchmark as failed) and are not stored.
    """
    path = Path(cache_dir) / f"measurement-{kernel}-{shape}.json"
    if path.exists():
        data = json.loads(path.read_text())
    else:
        M, N, K = parse_shape(shape)
        try:
            result = matmul_opt.benchmark(kernel, M, N, K, warmup=WARMUP, repetitions=REPETITIONS)
            data = {"ms": result.ms, "gflops": result.gflops}
        except (matmul_opt.KernelUnavailableError, matmul_opt.DeviceMemoryError) as exc:
            data = {"skip": f"{kernel} at {shape}: {exc}"}
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(data))
        os.replace(temporary, path)  # atomic: a reader sees the whole file or none
    if "skip" in data:
        raise NotImplementedError(data["skip"])
    return data


def pct_of_baseline(probe: dict, kernel: str, shape: str, result: dict) -> float:
    """100 * the baseline's (cuBLAS's) time at `shape` in this run / `result`'s time."""
    if kernel == BASELINE:
        return 100.0
    if not probe["available"].get(BASELINE, False):
        raise SkipNotImplemented(f"{BASELINE} is not available on this machine")
    try:
        baseline = measure(probe["dir"], BASELINE, shape)
    except NotImplementedError as exc:
        raise SkipNotImplemented(str(exc)) from exc
    return 100.0 * baseline["ms"] / result["ms"]


class _OnDevice:
    """What every suite here shares: one value per process, and a device probe that skips with its reason."""

    # track_* benchmarks return one value per process; asv runs one process per parameter pair per round, so one
    # round and one repeat mean each value is computed exactly once per `asv run`.
    rounds = 1
    repeat = 1
    number = 1
    # Per benchmark process: CUDA start-up plus at most ~10 launches of the slowest kernel/shape kept (~1 s each).
    timeout = 180

    def setup_cache(self):
        # The working directory is the per-run cache directory (see the module docstring).
        return probe_device(os.getcwd())

    @staticmethod
    def require(probe, kernel):
        """Raises asv's skip (NotImplementedError) unless `kernel` can run here."""
        if probe["skip"]:
            raise NotImplementedError(probe["skip"])
        if not probe["available"].get(kernel, False):
            raise NotImplementedError(f"kernel {kernel!r} is not available on this machine")


class Sgemm(_OnDevice):
    """C = A @ B, float32, row-major, device-resident random inputs in [-1, 1]."""

    params = [KERNELS, SHAPES]
    param_names = ["kernel", "shape"]

    def setup(self, probe, kernel, shape):
        self.require(probe, kernel)
        if kernel in SLOW_KERNELS and shape in SLOW_SKIPPED_SHAPES:
            raise NotImplementedError(f"{kernel} is too slow to benchmark at {shape}")
        self.result = measure(probe["dir"], kernel, shape)

    def track_gflops(self, probe, kernel, shape):
        """Throughput: 2*M*N*K / kernel time."""
        return self.result["gflops"]

    track_gflops.unit = "GFLOPS"

    def track_kernel_ms(self, probe, kernel, shape):
        """Median kernel time in milliseconds (asv treats larger as worse: this is the regression signal)."""
        return self.result["ms"]

    track_kernel_ms.unit = "ms"

    def track_pct_of_cublas(self, probe, kernel, shape):
        """100 * cuBLAS time / kernel time, both from this run (> 100 means faster than cuBLAS fp32)."""
        return pct_of_baseline(probe, kernel, shape, self.result)

    track_pct_of_cublas.unit = "%"

    def track_pct_of_fp32_peak(self, probe, kernel, shape):
        """100 * GFLOPS / the device's FP32 FMA peak (tf32 kernels on tensor cores can exceed 100)."""
        peak = probe["fp32_peak_gflops"]
        if not peak or peak <= 0:
            raise SkipNotImplemented("FP32 peak unknown for this architecture")
        return 100.0 * self.result["gflops"] / peak

    track_pct_of_fp32_peak.unit = "%"


# The shape of the accuracy track: K long enough that rounding errors accumulate, small enough for a float64
# reference on the CPU in well under a second.
ACCURACY_SHAPE = (512, 512, 4096)


class Accuracy(_OnDevice):
    """C = A @ B at ACCURACY_SHAPE on fresh random inputs in [-1, 1] through matmul_opt.run, against float64."""

    params = [KERNELS]
    param_names = ["kernel"]

    def setup(self, probe, kernel):
        self.require(probe, kernel)

    def track_relative_error(self, probe, kernel):
        """||C - C_ref||_F / ||sqrt((A*A) @ (B*B))||_F (matmul_opt.accuracy); fails above the tolerance."""
        M, N, K = ACCURACY_SHAPE
        rng = np.random.default_rng()
        A = rng.uniform(-1, 1, (M, K)).astype(np.float32)
        B = rng.uniform(-1, 1, (K, N)).astype(np.float32)
        error = relative_error(matmul_opt.run(kernel, A, B), A.astype(np.float64) @ B.astype(np.float64),
                               error_scale(A, B))
        arithmetic = {info.name: info.arithmetic for info in matmul_opt.kernels()}[kernel]
        if not error <= tolerance(arithmetic, K):
            raise AssertionError(f"{kernel}: relative error {error:.3e} above the {arithmetic} tolerance")
        return error

    track_relative_error.unit = "relative error"
