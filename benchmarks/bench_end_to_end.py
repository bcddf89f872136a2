"""End-to-end tracks: what a run() call costs where the operands live (benchmarks/end_to_end.py says how each is
measured), for the `best` kernel.

EndToEnd: wall-clock milliseconds of one synchronised call at 64^3 and 4096^3 from NumPy arrays, pinned arrays,
PyTorch and CuPy tensors. BackToBack: GPU milliseconds per call of 4096^3 products on GPU arrays, ten in a row between
CUDA events (benchmark()'s method, for comparison with the kernel's own track). Enqueue: microseconds per call of
back-to-back 64^3 products on GPU arrays, beside the library's own `a @ b` measured in the same process.
"""
from __future__ import annotations

try:
    from .bench_kernels import _OnDevice
    from .end_to_end import (SOURCES, Operands, available, call_repetitions, call_seconds, enqueue_seconds,
                             event_seconds)
except ImportError:  # imported as a top-level module
    from bench_kernels import _OnDevice
    from end_to_end import (SOURCES, Operands, available, call_repetitions, call_seconds, enqueue_seconds,
                            event_seconds)

KERNEL = "best"
SIZES = ["64", "4096"]


def _require_source(probe, source: str) -> None:
    _OnDevice.require(probe, KERNEL)
    if not available(source):
        raise NotImplementedError(f"{source} is not installed")


class EndToEnd(_OnDevice):
    """One run('best', A, B) at n x n x n, copies and synchronisation included."""

    params = [SOURCES, SIZES]
    param_names = ["source", "size"]

    def setup(self, probe, source, size):
        _require_source(probe, source)
        self.operands = Operands(source, int(size), KERNEL)

    def track_call_ms(self, probe, source, size):
        """Median wall-clock milliseconds of one call."""
        return call_seconds(self.operands, call_repetitions(int(size))) * 1e3

    track_call_ms.unit = "ms"


class BackToBack(_OnDevice):
    """Ten run('best', a, b) in a row at 4096^3 on GPU arrays, timed between the array library's CUDA events."""

    params = [["torch", "cupy"]]
    param_names = ["source"]

    def setup(self, probe, source):
        _require_source(probe, source)
        self.operands = Operands(source, 4096, KERNEL)

    def track_call_ms(self, probe, source):
        """Median GPU milliseconds per call."""
        return event_seconds(self.operands, calls=10) * 1e3

    track_call_ms.unit = "ms"


class Enqueue(_OnDevice):
    """Back-to-back 64^3 products on GPU arrays: run('best', a, b), or the array library's own a @ b."""

    params = [["torch", "cupy"], ["run", "library-matmul"]]
    param_names = ["source", "call"]

    def setup(self, probe, source, call):
        _require_source(probe, source)
        self.operands = Operands(source, 64, KERNEL)

    def track_call_us(self, probe, source, call):
        """Microseconds per call (enqueue cost: the GPU work of 64^3 is shorter)."""
        function = self.operands.call if call == "run" else self.operands.library_matmul
        return enqueue_seconds(function, self.operands.synchronize) * 1e6

    track_call_us.unit = "us"
