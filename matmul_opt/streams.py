"""CUDA stream handles as matmul_opt takes them: the runtime's two default streams, and stream= read into a handle."""
from __future__ import annotations

import numpy as np

# Stream handles of the CUDA runtime: the legacy default stream and the calling thread's default stream.
LEGACY_STREAM, PER_THREAD_STREAM = 1, 2


def stream_handle(stream) -> int:
    """An integer stream handle from stream= (an int, or an object with .ptr or .cuda_stream); 0, which CuPy and
    PyTorch use for the legacy default stream, becomes that stream's runtime handle."""
    for attribute in ("ptr", "cuda_stream"):
        if hasattr(stream, attribute):
            stream = getattr(stream, attribute)
            break
    if isinstance(stream, bool) or not isinstance(stream, (int, np.integer)) or stream < 0:
        raise TypeError(f"stream must be a stream handle (int) or an object with .ptr or .cuda_stream, got "
                        f"{type(stream).__name__}")
    return LEGACY_STREAM if stream == 0 else int(stream)
