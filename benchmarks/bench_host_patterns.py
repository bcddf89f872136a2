"""Host-path patterns: run('best', A, B) on pageable NumPy arrays as scripts call it (benchmarks/host_patterns.py
says each pattern), at 4096^3 and 1024^3, in a fresh process and in one that imported PyTorch first: the slowest
call after the first, in milliseconds. asv runs every parameter set in a process of its own, so each value is of a
fresh process.
"""
from __future__ import annotations

import importlib.util

try:
    from .bench_kernels import _OnDevice
    from .host_patterns import KERNEL, PATTERNS, call_ms, worst_after_first
except ImportError:  # imported as a top-level module
    from bench_kernels import _OnDevice
    from host_patterns import KERNEL, PATTERNS, call_ms, worst_after_first


class HostPatterns(_OnDevice):
    """Calls of run() from NumPy, kept, chained, alternating shapes or freed as they come."""

    params = [PATTERNS, ["4096", "1024"], ["fresh", "after-torch"]]
    param_names = ["pattern", "size", "process"]

    def setup(self, probe, pattern, size, process):
        _OnDevice.require(probe, KERNEL)
        if process == "after-torch":
            if importlib.util.find_spec("torch") is None:
                raise NotImplementedError("torch is not installed")
            import torch  # noqa: F401  (what a script that uses PyTorch has done before)

    def track_worst_call_ms(self, probe, pattern, size, process):
        """The slowest of 7 calls after the first, wall-clock milliseconds."""
        return worst_after_first(call_ms(pattern, int(size), calls=8))

    track_worst_call_ms.unit = "ms"
