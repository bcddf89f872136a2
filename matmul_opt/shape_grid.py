"""The shape grid: the products people multiply, in six classes, and the roofline each is measured against.

The classes (M x N x K; C is M x N):
- one-row: one side of C of 1..16 against a large other side and K (a vector or a few against a matrix);
- panel: one side of 17..256 (decode batches, skinny panels);
- short-k: K of 1..128 with large M and N (rank-k updates, whose cost is writing C);
- long-k: K of 16384..2^20 with M and N of 1..512 (reductions);
- projection: model layers, M of 256..16384 tokens by N and K of 1024..28672, with the sizes real models have;
- ragged: odd sizes with one live row or column in the last tile.
Sizes are mostly not powers of two and not multiples of any tile. GRID is what the asv suite and the report
measure; HELD_OUT holds other shapes of the same classes, which the tests run and nobody tunes to (the tuner has
sweeps of its own, matmul_opt.tune).

The roofline of a product is the larger of its FLOPs over the FP32 FMA peak and its bytes, 4(MK + KN + MN), over
the HBM read bandwidth measured on the GPU (matmul_opt.benchmark_read_bandwidth): no kernel that reads each
operand once and writes C once runs faster.
"""
from __future__ import annotations

from typing import NamedTuple


class GridShape(NamedTuple):
    klass: str
    M: int
    N: int
    K: int

    @property
    def name(self) -> str:
        return f"{self.M}x{self.N}x{self.K}"


CLASSES = ("one-row", "panel", "short-k", "long-k", "projection", "ragged")


def _shapes(klass: str, *mnk: tuple[int, int, int]) -> list[GridShape]:
    return [GridShape(klass, *shape) for shape in mnk]


GRID: list[GridShape] = (
    _shapes("one-row", (1, 4096, 4096), (8, 4096, 4096), (4096, 16, 4096), (3, 11008, 4096), (13, 5120, 13824),
            (7000, 5, 3000), (1, 1500, 9000), (11, 14336, 2500))
    + _shapes("panel", (32, 4096, 4096), (128, 4096, 4096), (100, 11008, 4096), (4096, 64, 4096),
              (200, 5120, 13824), (9000, 24, 2000), (250, 1500, 3000), (17, 8000, 8000))
    + _shapes("short-k", (4096, 4096, 16), (5000, 3000, 1), (3000, 7000, 64), (10000, 2000, 100), (6000, 6000, 33),
              (2048, 12000, 128), (7777, 4444, 8), (12000, 1500, 77))
    + _shapes("long-k", (64, 64, 1048576), (1, 1, 1000000), (16, 16, 500000), (128, 100, 200000), (500, 500, 60000),
              (300, 40, 100000), (200, 300, 20000), (32, 32, 300000))
    + _shapes("projection", (2048, 11008, 4096), (2048, 4096, 11008), (512, 13824, 5120), (1000, 5120, 13824),
              (300, 28672, 4096), (257, 3072, 1024), (16000, 1024, 4096), (3000, 5120, 5120))
    + _shapes("ragged", (2049, 2047, 999), (129, 4097, 2000), (3001, 257, 5003), (4097, 4097, 4097), (385, 769, 1537),
              (8193, 129, 1000), (1153, 1153, 1153), (6145, 3073, 515))
)

HELD_OUT: list[GridShape] = (
    _shapes("one-row", (5, 6000, 5000), (9000, 12, 2000), (2, 777, 3333))
    + _shapes("panel", (48, 7000, 3000), (5000, 150, 2500), (4000, 33, 1000))
    + _shapes("short-k", (9000, 3500, 24), (2500, 2500, 120), (1000, 3000, 3))
    + _shapes("long-k", (8, 24, 300000), (96, 200, 80000), (3, 500, 40000))
    + _shapes("projection", (700, 8192, 3072), (1500, 3072, 8192))
    + _shapes("ragged", (1537, 2561, 1025), (257, 6001, 777), (65, 65, 65))
)


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K


def bytes_moved(M: int, N: int, K: int) -> float:
    """Each operand read once and C written once, in float32."""
    return 4.0 * (M * K + K * N + M * N)


def roofline_ms(M: int, N: int, K: int, fp32_peak_gflops: float, hbm_gb_per_s: float) -> float:
    """The floor of a product: max(FLOPs / FP32 peak, bytes / HBM bandwidth), in milliseconds."""
    return max(flops(M, N, K) / (fp32_peak_gflops * 1e6), bytes_moved(M, N, K) / (hbm_gb_per_s * 1e6))


def bound_by(M: int, N: int, K: int, fp32_peak_gflops: float, hbm_gb_per_s: float) -> str:
    """'bytes' when the bytes term is the floor, else 'flops'."""
    memory = bytes_moved(M, N, K) / hbm_gb_per_s
    return "bytes" if memory >= flops(M, N, K) / fp32_peak_gflops else "flops"
