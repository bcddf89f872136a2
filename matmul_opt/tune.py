"""Regenerate the decision tables of the `best` kernel (cuda/kernels/best_table.h) from measurements.

    python3 -m matmul_opt.tune                          # measure, print the timings and the tables
    python3 -m matmul_opt.tune --write                  # also rewrite best_table.h (then rebuild)
    python3 -m matmul_opt.tune --json t.json            # keep the raw timings
    python3 -m matmul_opt.tune --from-json t.json       # the tables of saved timings, no GPU needed
    python3 -m matmul_opt.tune --from-json t.json --remeasure precision   # those timings, one sweep measured anew
    python3 -m matmul_opt.tune --from-json t.json --remeasure accuracy    # another draw of the accuracy sweep

best decides from features of the shape (cuda/kernels/best.cu says how); each feature has a sweep here, whose
shapes are generated from the feature alone and are none of the shape grid's (matmul_opt.shape_grid), so the grid
measures the choice on shapes nobody tuned to. Every configuration of best is timed at every shape of its sweep
(forced through mm_best_force), and the fastest makes the row:
- skinny: C of S rows (and of S columns) against 4096 x 4096, S from 1 to 32: the skinny kernel up to the
  largest S below which it wins every shape, for rows and for columns (kSkinnyMaxRows, kSkinnyMaxColumns);
- shortk: squares of 3072 and 6144 at K from 1 to 16: the shortk kernel up to the largest K below which it beats,
  at every shape, the configuration that the short-K table names for it (kShortkMaxK);
- panels: C of S rows (and of S columns) against a large side of 4096 at K = 1024 and 4096, S from 24 to 384,
  with the split-K rule's slices: at each K, the fastest tile for each orientation, a row per S up to where it
  changes; each K's rows apply up to halfway (geometrically) to the next K swept (kPanelRows);
- long K: small squares (1 to 512) at K = 131072, the split-K rule's slices: the skinny kernel up to the square
  where it stops winning, and each configuration's TFLOPS at the largest square, which every tile divides; best
  takes the configuration whose tiles, padded to cover C, take the least time at that rate (kLongK*);
- long K over one longk tile: C of S x 32 and 32 x S at K = 131072, S from 1 to 32, the skinny kernel against
  the longk kernel: the skinny kernel up to the largest S below which it wins every shape, longk past it
  (kLongkMinSmallSide);
- long K over a tiny C: C of S x L and L x S at K = 131072, 1 <= S <= L <= 8, where neither operand is large, the
  skinny kernel against the longk kernel: longk up to the largest L below which it wins every shape
  (kLongkTinyMaxSide), and up to the K per SM swept (kLongkTinyMaxKPerSm): longk spreads K over the SMs, so its
  time grows with K per SM, and at longer K the skinny kernel may win;
- short K: squares at K = 32: a row per range of output elements per SM (kShortKRows);
- squares: growing squares at K = min(size, 4096), with the split-K rule's slices, as best runs them: likewise
  (kRows). Each bound lies halfway (geometrically) between the per-SM sizes where the winner changes.
The same run tunes the dispatchers per accuracy (cuda/kernels/by_precision.cu, precision_table.h): best_tf32 and
best_fp32_accurate run their tensor-core kernel from an arithmetic intensity (FLOPs per byte of the roofline) up.
The precision sweep times best and each class's tensor-core kernel on panels, squares, short-K and long-K shapes,
and the threshold is the one whose choices lose the least time against the faster kernel at every shape that the
kernel would take (sum of log ratios; best_tf32 gives a long K over a C of at most LONGK_TF32_MAX_OUTPUTS outputs
to longk_tf32 instead), set halfway (geometrically) between the neighbouring intensities. best_fp32_accurate also
needs a K from which wgmma_3xtf32's error was within matmul_opt.accuracy.FP32_ACCURATE_CONTRACT at every larger K
measured (256 x K x 256, both input kinds, against cuBLAS fp32) in every draw of the accuracy sweep (each draw has fresh
inputs; --remeasure accuracy adds one to the saved draws, so a K that passes in one draw and fails in another is not
taken), and chooses between its two 3xTF32 kernels by C's smaller side: wgmma_3xtf32_register_split up to the
largest side of the sweep up to which it beat wgmma_3xtf32 at every shape (kRegisterSplitMaxSide) and from the K
from which its own error was within the contract at every larger K measured, likewise (kRegisterSplitMinK);
its intensity thresholds are those of that choice. On the tensor cores that class
runs ozaki_int8 instead of its 3xTF32 kernels from an intensity of the operands (2MNK over 4(MK + KN)) and a K, both
reached: the ozaki sweep times it against wgmma_3xtf32 on products of 6e10 to 9e12 FLOPs whose C and K vary apart,
each after seconds of its own launches (the GPU at its power limit, as long runs see it), and the pair of bounds is
chosen as the intensities are.
The ragged-edge rule's two rates come from the same timings (kCut*): the tile FMAs per SM per microsecond of the
fastest configuration on the squares from 1024 up, and the bytes per microsecond the skinny kernel streams on its
sweep's C of 1 to 4 rows or columns, each the lowest the sweep measured.
Rows name configurations by their names, so adding a configuration changes no other row. --write works in a
checkout of the repository only (an installed package has no sources to rewrite).
"""
from __future__ import annotations

import argparse
import ctypes
import json
import math
import sys
import textwrap
from pathlib import Path

import numpy as np

from ._library import check, library
from .accuracy import FP32_ACCURATE_CONTRACT
from .api import benchmark, device_info, kernel_available
from .report import DEFAULT_REST_S, DEFAULT_SUSTAINED_S, accuracy_over_k, time_sustained
from .shape_grid import bytes_moved, flops

TABLE = Path(__file__).resolve().parent.parent / "cuda" / "kernels" / "best_table.h"
PRECISION_TABLE = TABLE.with_name("precision_table.h")
SIZES = [256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192]
SHORT_K_SIZES = [1024, 2048, 3072, 4096, 6144, 8192]
SHORT_K = 32
SHORT_K_MAX = 128  # the short-K table applies up to this K (the shape grid's short-K class)
SKINNY_SIDES = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32]
SKINNY_NAME = "skinny"
SHORTK_NAME = "shortk"
LONGK_NAME = "longk"
LONGK_MAX_SIDE = 32  # longk.h's kMaxTileSide: the long-K-thin sweep's C fits one longk tile
LONGK_TINY_SIDES = [1, 2, 3, 4, 6, 8]  # the long-K-tiny sweep's sides: C so small that neither operand is large
SHORTK_SIZES = [3072, 6144]
SHORTK_KS = [1, 2, 3, 4, 6, 8, 12, 16]  # up to shortk.h's kMaxK: past it the shortk kernel runs its fallback
TIE_FRACTION = 0.015  # table_rows: a winner by less than this keeps the configuration of the size below
PANEL_SIDES = [24, 32, 48, 64, 96, 128, 192, 256, 320, 384]
PANEL_KS = [1024, 4096]  # the panel sweep's K: the tile that wins a panel at a long K can lose at a short one
SKINNY_MAX_SIDE = 32  # skinny.h's kMaxSmallSide: past it the skinny kernel runs its fallback
LONG_K_SIDES = [1, 4, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512]
LONG_K = 131072
LONG_K_MIN = 16384  # the long-K table applies from this K (the shape grid's long-K class)
CUT_MIN_SQUARE = 1024  # the ragged-edge rule's tile rate: squares from here up, whose tiles fill the SMs
CUT_EDGE_SIDE = 4  # its edge rate: the skinny sweep's C of up to this many rows or columns (an edge holds a few)
AGAINST = 4096  # the large side and K of the skinny and panel sweeps
AUTO_SPLITS = 0  # mm_best_force's "the split-K rule's slices"
# The precision sweep: each class's tensor-core kernels against its choice off the tensor cores, on shapes from
# memory-bound to compute-bound: wgmma_tf32 against best; the fp32-accurate class's kernels against the time of
# best_fp32_accurate forced off the tensor cores (pairwise or best), which its rows name FP32_ACCURATE_FFMA.
TENSOR_KERNELS = {"tf32": "wgmma_tf32", "fp32_accurate": "wgmma_3xtf32"}
# The fp32-accurate class's tensor-core kernel for a C with a small side, beside TENSOR_KERNELS' (by_precision.cu).
REGISTER_SPLIT = "wgmma_3xtf32_register_split"
FP32_ACCURATE_FFMA = "fp32_accurate_ffma"
# The largest C (in outputs) over which best_tf32 runs longk_tf32 where best's long-K rule takes the product: up to
# about this size it beat wgmma_tf32, past it wgmma_tf32's tiles won (docs/experiments/2026-12-06-shared-ring.md).
# Set from that record, not by a sweep; precision_table.h carries it to by_precision.cu.
LONGK_TF32_MAX_OUTPUTS = 19200
PRECISION_PANEL_SIDES = (16, 32, 48, 96, 192, 256, 384, 512, 768)
PRECISION_PANEL_KS = (1024, 4096)
PRECISION_SQUARES = (768, 1536, 3072)
PRECISION_SHORT_KS = (16, 32, 64, 128, 256)
PRECISION_LONG_K_SIDES = (64, 128, 256, 512)
PRECISION_SHAPES = ([(side, AGAINST, k) for k in PRECISION_PANEL_KS for side in PRECISION_PANEL_SIDES]
                    + [(AGAINST, side, k) for k in PRECISION_PANEL_KS for side in PRECISION_PANEL_SIDES]
                    + [(n, n, n) for n in PRECISION_SQUARES]
                    + [(AGAINST, AGAINST, k) for k in PRECISION_SHORT_KS]
                    + [(side, side, LONG_K) for side in PRECISION_LONG_K_SIDES])
PRECISION_ACCURACY_KS = (1, 4, 16, 32, 64, 128, 256, 512, 1024, 4096, 16384, 65536)
ACCURACY_BASELINE = "cublas"
# The ozaki sweep: the fp32-accurate class's INT8 kernel against its TF32 one on products from where its passes over
# memory outweigh its faster product (a few 10^10 FLOPs) to the largest, timed sustained (after seconds of their own
# launches, where the GPU holds its power limit), FLOPs and K varied apart: squares, and squares of C over a K of an
# eighth to four times their side.
OZAKI_KERNELS = ("ozaki_int8", TENSOR_KERNELS["fp32_accurate"])
OZAKI_SHAPES = ((3072, 3072, 3072), (4096, 4096, 4096), (8192, 8192, 1024), (8192, 8192, 2048), (6144, 6144, 6144),
                (4096, 4096, 16384), (8192, 8192, 8192), (16384, 16384, 4096), (12288, 12288, 12288),
                (16384, 16384, 8192), (8192, 8192, 32768), (16384, 16384, 16384))


def config_names() -> list[str]:
    """best's configurations, in the order of the library's tuning hooks."""
    lib = library()
    names = []
    for config in range(lib.mm_best_config_count()):
        name = ctypes.c_char_p()
        check(lib.mm_best_config_name(config, ctypes.byref(name)))
        names.append(name.value.decode())
    return names


def sweeps() -> list[tuple[str, int, int, int, int]]:
    """(sweep, M, N, K, forced splits) of every shape the tuner times."""
    shapes = [("squares", n, n, min(n, 4096), AUTO_SPLITS) for n in SIZES]
    shapes += [("short_k", n, n, SHORT_K, 1) for n in SHORT_K_SIZES]
    shapes += [("shortk", n, n, k, 1) for n in SHORTK_SIZES for k in SHORTK_KS]
    for side in SKINNY_SIDES:
        shapes += [("skinny", side, AGAINST, AGAINST, AUTO_SPLITS), ("skinny", AGAINST, side, AGAINST, AUTO_SPLITS)]
    for k in PANEL_KS:
        for side in PANEL_SIDES:
            shapes += [("panels", side, AGAINST, k, AUTO_SPLITS), ("panels", AGAINST, side, k, AUTO_SPLITS)]
    shapes += [("long_k", side, side, LONG_K, AUTO_SPLITS) for side in LONG_K_SIDES]
    for side in SKINNY_SIDES:
        shapes += [("long_k_thin", side, LONGK_MAX_SIDE, LONG_K, AUTO_SPLITS)]
        if side < LONGK_MAX_SIDE:
            shapes += [("long_k_thin", LONGK_MAX_SIDE, side, LONG_K, AUTO_SPLITS)]
    for large in LONGK_TINY_SIDES:
        for small in (side for side in LONGK_TINY_SIDES if side <= large):
            shapes += [("long_k_tiny", small, large, LONG_K, AUTO_SPLITS)]
            if small < large:
                shapes += [("long_k_tiny", large, small, LONG_K, AUTO_SPLITS)]
    return shapes


def candidate(name: str, sweep: str, M: int, N: int) -> bool:
    """Whether configuration `name` is timed at M x N in `sweep`: the skinny kernel where it takes the small side,
    the shortk kernel in its sweep, the longk kernel and the skinny kernel alone in the long-K-thin and long-K-tiny
    sweeps, and every tiled configuration elsewhere."""
    if sweep in ("long_k_thin", "long_k_tiny"):
        return name in (SKINNY_NAME, LONGK_NAME)
    if name == SKINNY_NAME:
        return sweep in ("skinny", "long_k") and min(M, N) <= SKINNY_MAX_SIDE  # past it, its fallback runs
    return name not in (SHORTK_NAME, LONGK_NAME) or (name == SHORTK_NAME and sweep == "shortk")


def best_sweeps() -> list[str]:
    """The names of the sweeps of best's table, in the order they run."""
    return list(dict.fromkeys(sweep for sweep, *_ in sweeps()))


PRECISION_TABLE_SWEEPS = ["precision", "ozaki", "accuracy"]  # precision_table.h's, after best's


def sweep_names() -> list[str]:
    """The sweeps' names, in the order they run: best's, then the precision, ozaki and accuracy sweeps."""
    return best_sweeps() + PRECISION_TABLE_SWEEPS


def measured_elsewhere(t: dict, names: list[str]) -> str:
    """A generated file's comment lines for those of the sweeps `names` that ran on a GPU other than the rest's."""
    return "".join(f"\n// The {sweep} sweep ran on {gpu}, not on the GPU of the other sweeps (tune --other-gpu)."
                   for sweep, gpu in sorted(t.get("measured_on", {}).items()) if sweep in names)


def measure(repetitions: int, only: set[str] | None = None) -> list[dict]:
    """[{sweep, M, N, K, ms: {configuration name: median ms}}] per shape of the sweeps (of those named in `only`)."""
    def wanted(sweep: str) -> bool:
        return only is None or sweep in only

    lib = library()
    names = config_names()
    rows = []
    try:
        for sweep, M, N, K, splits in sweeps():
            if not wanted(sweep):
                continue
            times = {}
            for config, name in enumerate(names):
                if not candidate(name, sweep, M, N):
                    continue
                print(f"  {sweep} {M}x{N}x{K} {name}", file=sys.stderr, flush=True)
                check(lib.mm_best_force(config, splits))
                times[name] = benchmark("best", M, N, K, warmup=2, repetitions=repetitions).ms
            rows.append({"sweep": sweep, "M": M, "N": N, "K": K, "ms": times})
    finally:
        check(lib.mm_best_force(-1, 1))
    for M, N, K in PRECISION_SHAPES if wanted("precision") else []:
        times = {}
        for name in ("best", *TENSOR_KERNELS.values(), REGISTER_SPLIT):
            print(f"  precision {M}x{N}x{K} {name}", file=sys.stderr, flush=True)
            times[name] = benchmark(name, M, N, K, warmup=2, repetitions=repetitions).ms
        print(f"  precision {M}x{N}x{K} {FP32_ACCURATE_FFMA}", file=sys.stderr, flush=True)
        check(lib.mm_fp32_accurate_force_ffma(1))
        try:
            times[FP32_ACCURATE_FFMA] = benchmark("best_fp32_accurate", M, N, K, warmup=2, repetitions=repetitions).ms
        finally:
            check(lib.mm_fp32_accurate_force_ffma(0))
        rows.append({"sweep": "precision", "M": M, "N": N, "K": K, "ms": times})
    for shape in OZAKI_SHAPES if wanted("ozaki") else []:
        timed = time_sustained(list(OZAKI_KERNELS), [shape], DEFAULT_SUSTAINED_S, repetitions, DEFAULT_REST_S)
        M, N, K = shape
        rows.append({"sweep": "ozaki", "M": M, "N": N, "K": K, "ms": {row["kernel"]: row["ms"] for row in timed}})
    return rows


def measure_accuracy() -> dict[str, dict[str, dict[int, float]]]:
    """The fp32-accurate tensor-core kernels' and cuBLAS fp32's errors over K (report.accuracy_over_k)."""
    kernels = [TENSOR_KERNELS["fp32_accurate"]] + ([REGISTER_SPLIT] if kernel_available(REGISTER_SPLIT) else [])
    return accuracy_over_k(kernels + [ACCURACY_BASELINE], PRECISION_ACCURACY_KS, np.random.default_rng())


def fastest(row: dict) -> str:
    return min(row["ms"], key=row["ms"].get)


def table_rows(measurements: list[dict], sms: int) -> list[tuple[int | str, str, list[int]]]:
    """[(max_mn_per_sm, configuration name, the sizes it won)], increasing, the last bound open (INT64_MAX), from
    measurements of squares (one sweep). A size whose fastest configuration beats the one of the size below by less
    than TIE_FRACTION keeps that one: such a flip lies within the sweep's run-to-run spread."""
    winners: list[tuple[float, str, int]] = []
    for row in measurements:
        config = fastest(row)
        below = winners[-1][1] if winners else None
        if below in row["ms"] and row["ms"][below] <= (1 + TIE_FRACTION) * row["ms"][config]:
            config = below
        winners.append((row["M"] * row["N"] / sms, config, row["M"]))
    rows: list[tuple[int | str, str, list[int]]] = []
    for (mn, config, size), following in zip(winners, winners[1:] + [None]):
        bound = "INT64_MAX" if following is None else int(math.sqrt(mn * following[0]))
        if rows and rows[-1][1] == config:
            rows[-1] = (bound, config, rows[-1][2] + [size])
        else:
            rows.append((bound, config, [size]))
    return rows


def largest_won(measurements: list[dict], feature, wins) -> int:
    """The largest value of feature(row) up to which wins(row) holds at every shape of the measurements (0: none)."""
    best = 0
    for value in sorted({feature(row) for row in measurements}):
        if not all(wins(row) for row in measurements if feature(row) == value):
            break
        best = value
    return best


def skinny_max_side(measurements: list[dict]) -> int:
    """The largest small side up to which the skinny kernel is the fastest at every shape of the measurements (0:
    none)."""
    return largest_won(measurements, lambda row: min(row["M"], row["N"]), lambda row: fastest(row) == SKINNY_NAME)


def longk_tiny_bounds(measurements: list[dict], sms: int) -> tuple[int, int]:
    """The largest side of C up to which the longk kernel is the fastest at every shape of the measurements, and
    the longest K per SM they measured (rounded up, so that it admits the K swept); (0, 0) where longk wins none."""
    side = largest_won(measurements, lambda row: max(row["M"], row["N"]), lambda row: fastest(row) == LONGK_NAME)
    return side, -(-max(row["K"] for row in measurements) // sms) if side else 0


def by_mn_per_sm(rows: list[tuple[int | str, str, list[int]]], M: int, N: int, sms: int) -> str:
    """The configuration of a table_rows table for an M x N C, as best looks it up (integer outputs per SM)."""
    mn_per_sm = M * N // sms
    return next(config for bound, config, _ in rows if bound == "INT64_MAX" or mn_per_sm <= bound)


def shortk_max_k(measurements: list[dict], short_k_rows: list[tuple[int | str, str, list[int]]], sms: int) -> int:
    """The largest K up to which the shortk kernel is faster, at every shape of the measurements, than what best
    runs there without it: the short-K table's configuration (short_k_rows) for the shape (0: none). Not the fastest
    tile of each shape: a tile can win at K = 8 and yet never run there, where the table, measured at another K,
    names another."""
    def beats_the_table(row: dict) -> bool:
        return row["ms"][SHORTK_NAME] <= row["ms"][by_mn_per_sm(short_k_rows, row["M"], row["N"], sms)]

    return largest_won(measurements, lambda row: row["K"], beats_the_table)


def long_k_rule(measurements: list[dict], sms: int) -> dict:
    """The long-K rule from squares at a long K: the largest output elements per SM of the sweep; how far the
    skinny kernel reaches (halfway, geometrically, between the last square it wins from the smallest on and the
    next); and every other configuration's TFLOPS at the largest square, which every tile divides."""
    rows = sorted(measurements, key=lambda row: row["M"] * row["N"])
    mn = [row["M"] * row["N"] / sms for row in rows]
    won = 0
    while won < len(rows) and fastest(rows[won]) == SKINNY_NAME:
        won += 1
    skinny_bound = 0 if won == 0 else math.ceil(mn[-1]) if won == len(rows) else int(math.sqrt(mn[won - 1] * mn[won]))
    largest = rows[-1]
    flops = 2 * largest["M"] * largest["N"] * largest["K"]
    rates = [(name, round(flops / (ms * 1e9), 2)) for name, ms in largest["ms"].items() if name != SKINNY_NAME]
    return {"max_mn_per_sm": math.ceil(mn[-1]), "skinny_max_mn_per_sm": skinny_bound, "rates": rates,
            "largest": largest["M"], "skinny_sides": [row["M"] for row in rows[:won]]}


def cut_rates(squares: list[dict], skinny: list[dict], sms: int) -> dict:
    """The ragged-edge rule's rates: the lowest FMAs per SM per microsecond of the fastest configuration on the
    squares from CUT_MIN_SQUARE up, and the lowest bytes per microsecond the skinny kernel streams on C of at most
    CUT_EDGE_SIDE rows or columns (operands and C once)."""
    fmas = [row["M"] * row["N"] * row["K"] / sms / (row["ms"][fastest(row)] * 1e3)
            for row in squares if row["M"] >= CUT_MIN_SQUARE]
    streams = [4 * (row["M"] * row["K"] + row["K"] * row["N"] + row["M"] * row["N"]) / (row["ms"][SKINNY_NAME] * 1e3)
               for row in skinny if min(row["M"], row["N"]) <= CUT_EDGE_SIDE and SKINNY_NAME in row["ms"]]
    return {"tile_fmas_per_sm_per_us": round(min(fmas), -2), "edge_bytes_per_us": round(min(streams), -4)}


def panel_rows(measurements: list[dict]) -> list[tuple[int | str, int, str, str]]:
    """[(max_k, max_small_side, fastest with few rows, fastest with few columns)]: per K swept, a row per measured
    side, equal neighbours merged into the larger bound; a K's rows apply up to halfway (geometrically) to the next
    K swept, the last K's from there on (INT_MAX)."""
    by_k: dict[int, dict[int, dict[str, str]]] = {}
    for row in measurements:
        orientation = "rows" if row["M"] <= row["N"] else "columns"
        by_k.setdefault(row["K"], {}).setdefault(min(row["M"], row["N"]), {})[orientation] = fastest(row)
    ks = sorted(by_k)
    rows: list[tuple[int | str, int, str, str]] = []
    for k, following in zip(ks, ks[1:] + [None]):
        max_k = "INT_MAX" if following is None else int(math.sqrt(k * following))
        first = len(rows)
        for side, winners in sorted(by_k[k].items()):
            entry = (max_k, side, winners["rows"], winners["columns"])
            if len(rows) > first and rows[-1][2:] == entry[2:]:
                rows[-1] = entry
            else:
                rows.append(entry)
    return rows


def flops_per_byte(row: dict) -> float:
    """The roofline's FLOPs over its bytes (by_precision.cu's feature)."""
    return flops(row["M"], row["N"], row["K"]) / bytes_moved(row["M"], row["N"], row["K"])


def operand_flops_per_byte(row: dict) -> float:
    """FLOPs over the operands' bytes alone, 2MNK over 4(MK + KN) (by_precision.cu's second feature): the intensity
    of the passes that prepare the operands for the tensor cores, which move bytes in proportion to (M + N)K."""
    return row["M"] * row["N"] / (2 * (row["M"] + row["N"]))


def least_loss_thresholds(measurements: list[dict], features, chosen: str, otherwise: str) -> tuple[float, float]:
    """The thresholds on the two `features` (functions of a row) from which `chosen` runs instead of `otherwise`,
    both reached: of the pairs of thresholds between the measured values of each (halfway, geometrically; below all
    of them; past all of them, inf), the pair whose choices lose the least time against the faster of the two (sum
    of log ratios); where several tie, the highest finite pair: between the measurements that decide, `otherwise`
    keeps the shapes nobody measured. (inf, inf) without measurements."""
    if not measurements:
        return math.inf, math.inf

    def candidates(feature):
        levels = sorted({feature(row) for row in measurements})
        return [levels[0] / 2] + [math.sqrt(a * b) for a, b in zip(levels, levels[1:])] + [math.inf]

    def loss(thresholds):
        names = [chosen if all(feature(row) >= bound for feature, bound in zip(features, thresholds)) else otherwise
                 for row in measurements]
        return sum(math.log(row["ms"][name] / min(row["ms"][otherwise], row["ms"][chosen]))
                   for row, name in zip(measurements, names))
    pairs = [(first, second) for first in candidates(features[0]) for second in candidates(features[1])]
    least = min(round(loss(pair), 12) for pair in pairs)
    tied = [pair for pair in pairs if round(loss(pair), 12) == least]
    finite = [pair for pair in tied if not math.isinf(sum(pair))]
    return max(finite) if finite else tied[0]


def min_intensities(measurements: list[dict], tensor: str, otherwise: str = "best") -> tuple[float, float]:
    """The intensities (flops_per_byte, operand_flops_per_byte) from which `tensor` runs instead of `otherwise`."""
    return least_loss_thresholds(measurements, (flops_per_byte, operand_flops_per_byte), tensor, otherwise)


def ozaki_bounds(measurements: list[dict]) -> tuple[float, float]:
    """The operands' intensity (operand_flops_per_byte: 2MNK over 4(MK + KN), which C's shape alone sets) and the K
    from which the fp32-accurate class runs ozaki_int8 instead of its TF32 kernel: its passes over the operands grow
    with (M + N)K, its rebuild with MN, its product's time with MNK, so it pays where both sides of C are large (a
    panel's small side makes the operands' passes outweigh the product) and K is long."""
    return least_loss_thresholds(measurements, (operand_flops_per_byte, lambda row: row["K"]), *OZAKI_KERNELS)


def best_takes_long_k(row: dict, long_k_max_mn_per_sm: int | None, sms: int) -> bool:
    """Whether best's long-K rule takes the row's shape: K from LONG_K_MIN over at most long_k_max_mn_per_sm outputs
    per SM (None: no such rule)."""
    return (long_k_max_mn_per_sm is not None and row["K"] >= LONG_K_MIN
            and row["M"] * row["N"] // sms <= long_k_max_mn_per_sm)


def takes_longk_tf32(row: dict, long_k_max_mn_per_sm: int | None, longk_min_small_side: int, sms: int) -> bool:
    """Whether best_tf32 runs longk_tf32 at the row's shape (by_precision.cu's takes_longk_tf32): best's long-K rule
    takes it, C's smaller side is past what that rule leaves to the skinny kernel, and C has at most
    LONGK_TF32_MAX_OUTPUTS outputs."""
    return (best_takes_long_k(row, long_k_max_mn_per_sm, sms) and min(row["M"], row["N"]) > longk_min_small_side
            and row["M"] * row["N"] <= LONGK_TF32_MAX_OUTPUTS)


def register_split_max_side(measurements: list[dict], long_k_max_mn_per_sm: int | None = None, sms: int = 1) -> int:
    """The smaller side of C up to which the fp32-accurate class takes the register-split kernel rather than its other
    tensor-core kernel: of 0 and the sides of the precision sweep, best's long-K products aside, the one whose choices
    lose the least time against the faster of the two (sum of log ratios); where several tie, the smallest (0: never,
    or not measured)."""
    rows = [row for row in measurements
            if REGISTER_SPLIT in row["ms"] and not best_takes_long_k(row, long_k_max_mn_per_sm, sms)]
    other = TENSOR_KERNELS["fp32_accurate"]

    def loss(bound):
        return round(sum(math.log(row["ms"][REGISTER_SPLIT if min(row["M"], row["N"]) <= bound else other]
                                  / min(row["ms"][REGISTER_SPLIT], row["ms"][other])) for row in rows), 12)
    return min([0] + sorted({min(row["M"], row["N"]) for row in rows}), key=lambda side: (loss(side), side))


def takes_register_split(row: dict, max_side: int, min_k: int | str, long_k_max_mn_per_sm: int | None = None,
                         sms: int = 1) -> bool:
    """Whether the fp32-accurate class's tensor-core kernel at the row's shape is the register-split kernel (C's
    smaller side at most max_side, K at least min_k, INT_MAX: never, and not a product of best's long-K rule) rather
    than TENSOR_KERNELS' (by_precision.cu's fp32_accurate_tensor)."""
    return (min(row["M"], row["N"]) <= max_side and min_k != "INT_MAX" and row["K"] >= min_k
            and not best_takes_long_k(row, long_k_max_mn_per_sm, sms))


def accurate_min_k(draws: list[dict[str, dict[str, dict[int, float]]]],
                   kernel: str = TENSOR_KERNELS["fp32_accurate"]) -> int | str:
    """The least K measured from which `kernel`'s error is within FP32_ACCURATE_CONTRACT of cuBLAS fp32's at every
    larger K measured, on every input kind and in every draw of the accuracy sweep; INT_MAX where the largest K fails
    or the kernel was not measured."""
    def within(k: int) -> bool:
        return all(by_kernel[kernel][k] <= FP32_ACCURATE_CONTRACT[kind] * by_kernel[ACCURACY_BASELINE][k]
                   for draw in draws for kind, by_kernel in draw.items() if k in by_kernel.get(kernel, {}))

    least: int | str = "INT_MAX"
    for k in sorted({k for draw in draws for by_kernel in draw.values() for k in by_kernel.get(kernel, {})},
                    reverse=True):
        if not within(k):
            break
        least = k
    return least


def accuracy_draws(saved: list | dict | None) -> list[dict[str, dict[str, dict[int, float]]]]:
    """The accuracy sweep's draws as a saved JSON holds them (a list of draws, or one draw as a dict; none), each
    {input kind: {kernel: {K: error}}} with its K as integers (JSON keeps them as strings)."""
    draws = [saved] if isinstance(saved, dict) else saved or []
    return [{kind: {name: {int(k): error for k, error in by_k.items()} for name, by_k in by_kernel.items()}
             for kind, by_kernel in draw.items()} for draw in draws]


def tables(measurements: list[dict], sms: int, accuracy: list | dict | None = None,
           measured_on: dict[str, str] | None = None) -> dict:
    """Every table of best_table.h and precision_table.h from the sweeps' measurements (and the accuracy sweep's
    draws, as accuracy_draws reads them; measured_on: {sweep: GPU} for sweeps measured on a GPU other than the
    rest's, which precision_table.h names)."""
    of = lambda sweep: [row for row in measurements if row.get("sweep", "squares") == sweep]  # noqa: E731
    skinny = of("skinny")
    draws = accuracy_draws(accuracy)
    register_split_min_k = accurate_min_k(draws, REGISTER_SPLIT)
    short_k = table_rows(of("short_k"), sms)
    long_k = long_k_rule(of("long_k"), sms)
    longk_min_small_side = skinny_max_side(of("long_k_thin"))  # where skinny beats longk
    return {"skinny_max_rows": skinny_max_side([row for row in skinny if row["M"] <= row["N"]]),
            "skinny_max_columns": skinny_max_side([row for row in skinny if row["M"] > row["N"]]),
            "shortk_max_k": shortk_max_k(of("shortk"), short_k, sms),
            "longk_min_small_side": longk_min_small_side,
            "longk_tiny": longk_tiny_bounds(of("long_k_tiny"), sms),  # where longk beats skinny
            "panels": panel_rows(of("panels")), "panel_ks": sorted({row["K"] for row in of("panels")}),
            "long_k": long_k, "cut": cut_rates(of("squares"), skinny, sms),
            "short_k": short_k, "squares": table_rows(of("squares"), sms),
            "precision": precision_thresholds(of("precision"), register_split_min_k, long_k["max_mn_per_sm"], sms,
                                              longk_min_small_side),
            "register_split_max_side": register_split_max_side(of("precision"), long_k["max_mn_per_sm"], sms),
            "ozaki": ozaki_bounds(of("ozaki")),
            "accurate_min_k": accurate_min_k(draws),
            "register_split_min_k": register_split_min_k, "measured_on": dict(measured_on or {})}


def precision_thresholds(measurements: list[dict], register_split_min_k: int | str = 1,
                         long_k_max_mn_per_sm: int | None = None, sms: int = 1,
                         longk_min_small_side: int = 0) -> dict[str, tuple[float, float]]:
    """The intensity thresholds of each tensor-core kernel against its class's choice off the tensor cores, each
    over the rows it would take: wgmma_tf32 over those that best_tf32 does not give longk_tf32 (takes_longk_tf32),
    the fp32-accurate class's two kernels each over its own (takes_register_split); with best's long-K rule of
    long_k_max_mn_per_sm outputs per SM on sms SMs, whose C of a smaller side up to longk_min_small_side goes to
    the skinny kernel."""
    max_side = register_split_max_side(measurements, long_k_max_mn_per_sm, sms)
    takes = [takes_register_split(row, max_side, register_split_min_k, long_k_max_mn_per_sm, sms)
             for row in measurements]
    split = [row for row, taken in zip(measurements, takes) if taken]
    both = [row for row, taken in zip(measurements, takes) if not taken]
    by_intensity = [row for row in measurements
                    if not takes_longk_tf32(row, long_k_max_mn_per_sm, longk_min_small_side, sms)]
    return {"tf32": min_intensities(by_intensity, TENSOR_KERNELS["tf32"]),
            "fp32_accurate": min_intensities(both, TENSOR_KERNELS["fp32_accurate"], FP32_ACCURATE_FFMA),
            "register_split": min_intensities(split, REGISTER_SPLIT, FP32_ACCURATE_FFMA)}


def render(t: dict) -> str:
    """The whole of best_table.h for these tables."""
    def rows_of(rows, what):
        return "".join(f'    {{{bound}, "{config}"}},  // fastest at {", ".join(f"{s}^2" for s in sizes)}{what}\n'
                       for bound, config, sizes in rows)

    panels = "".join(f'    {{{max_k}, {side}, "{few_rows}", "{few_columns}"}},\n'
                     for max_k, side, few_rows, few_columns in t["panels"])
    rates = "".join(f'    {{"{name}", {tflops}}},\n' for name, tflops in t["long_k"]["rates"])
    elsewhere = measured_elsewhere(t, best_sweeps())
    return f"""// Generated by `python3 -m matmul_opt.tune --write`; edits are overwritten.{elsewhere}
#pragma once

#include <climits>
#include <cstdint>

namespace best_table {{

struct Row {{
    int64_t max_mn_per_sm;  // the row applies up to this many output elements per SM
    const char* config;     // the configuration's name
}};

struct Rate {{
    const char* config;  // the configuration's name
    double tflops;       // its throughput on a C that its tiles cover exactly
}};

struct PanelRow {{
    int max_k;                // the row applies up to this K (past the previous K's rows)
    int max_small_side;       // and to C of up to this many rows or columns (past the previous row's)
    const char* few_rows;     // the configuration for C of that many rows
    const char* few_columns;  // and for C of that many columns
}};

// C with at most this many rows, or columns: the skinny kernel (fastest at every small side up to it, against
// {AGAINST} x {AGAINST}).
inline constexpr int kSkinnyMaxRows = {t["skinny_max_rows"]};
inline constexpr int kSkinnyMaxColumns = {t["skinny_max_columns"]};

// K up to this: the shortk kernel (faster than the short-K table's configuration at every K up to it, squares of
// {" and ".join(map(str, SHORTK_SIZES))}).
inline constexpr int kShortkMaxK = {t["shortk_max_k"]};

// Panels (against a large side of {AGAINST} at K = {" and ".join(map(str, t["panel_ks"]))}, the split-K rule's slices; each K's rows apply
// up to halfway, geometrically, to the next K swept).
inline constexpr PanelRow kPanelRows[] = {{
{panels}}};

// A long K over a small C: K from kLongKMin and at most kLongKMaxMnPerSm output elements per SM (squares up to
// {t["long_k"]["largest"]}^2 at K = {LONG_K}, the split-K rule's slices). The skinny kernel up to kLongKSkinnyMaxMnPerSm
// (fastest at {", ".join(f"{s}^2" for s in t["long_k"]["skinny_sides"]) or "none"}); else the configuration whose tiles cover C in the least time at its TFLOPS at
// {t["long_k"]["largest"]}^2 (kLongKRates).
inline constexpr int kLongKMin = {LONG_K_MIN};
inline constexpr int64_t kLongKMaxMnPerSm = {t["long_k"]["max_mn_per_sm"]};
inline constexpr int64_t kLongKSkinnyMaxMnPerSm = {t["long_k"]["skinny_max_mn_per_sm"]};

inline constexpr Rate kLongKRates[] = {{
{rates}}};

// A long K over a C that one longk tile covers (both sides up to {LONGK_MAX_SIDE}): the skinny kernel where C's smaller side is
// at most kLongkMinSmallSide (it beats longk at every S x {LONGK_MAX_SIDE} and {LONGK_MAX_SIDE} x S up to it, K = {LONG_K}), else longk.
inline constexpr int kLongkMinSmallSide = {t["longk_min_small_side"]};

// But longk where C's larger side is at most kLongkTinyMaxSide, so that neither operand is large, and K is at most
// kLongkTinyMaxKPerSm per SM: the largest side up to which it beat the skinny kernel at every S x L and L x S
// (S <= L of {", ".join(map(str, LONGK_TINY_SIDES))}) at K = {LONG_K}, and that K per SM (0: at none).
inline constexpr int kLongkTinyMaxSide = {t["longk_tiny"][0]};
inline constexpr int kLongkTinyMaxKPerSm = {t["longk_tiny"][1]};

// The ragged-edge rule's rates: the lowest tile FMAs per SM per microsecond of the fastest configuration on the
// squares from {CUT_MIN_SQUARE}^2 up, and the lowest bytes per microsecond the skinny kernel streams on C of 1 to
// {CUT_EDGE_SIDE} rows or columns against {AGAINST} x {AGAINST}.
inline constexpr double kCutTileFmasPerSmPerUs = {t["cut"]["tile_fmas_per_sm_per_us"]:.0f};
inline constexpr double kCutEdgeBytesPerUs = {t["cut"]["edge_bytes_per_us"]:.0f};

// K up to this: the short-K table (squares at K = {SHORT_K}). In both tables below, a size whose winner beat the
// configuration of the size below by less than {TIE_FRACTION:.1%} keeps that one (within the sweep's spread), and
// a row's "fastest at" lists such sizes too.
inline constexpr int kShortKMax = {SHORT_K_MAX};

inline constexpr Row kShortKRows[] = {{
{rows_of(t["short_k"], f", K = {SHORT_K}")}}};

inline constexpr Row kRows[] = {{
{rows_of(t["squares"], "")}}};

}}  // namespace best_table
"""


def render_precision(t: dict) -> str:
    """The whole of precision_table.h for these tables."""
    def bound(value):
        return "INFINITY" if math.isinf(value) else f"{value:.1f}"

    shapes = ", ".join("x".join(map(str, shape)) for shape in OZAKI_SHAPES)
    ozaki_comment = "\n".join("// " + line for line in textwrap.wrap(
        f"The operands' intensity (2MNK over 4(MK + KN)) and K from which the fp32-accurate class runs "
        f"{OZAKI_KERNELS[0]} instead of "
        f"{OZAKI_KERNELS[1]} on the tensor cores, both reached: the pair that lost the least time against the faster "
        f"of the two, each timed after {DEFAULT_SUSTAINED_S:g} s of its own launches, over the ozaki sweep ({shapes}); "
        "INFINITY: never.", width=113))

    def listed(values):
        return ", ".join(map(str, values))
    elsewhere = measured_elsewhere(t, PRECISION_TABLE_SWEEPS)
    return f"""// Generated by `python3 -m matmul_opt.tune --write`; edits are overwritten.{elsewhere}
#pragma once

#include <climits>
#include <cmath>
#include <cstdint>

namespace precision_table {{

// The intensities from which each tensor-core kernel runs instead of its class's choice off the tensor cores (best;
// for fp32 accuracy, pairwise or best), both reached: 2MNK FLOPs over the 4(MK + KN + MN) bytes the product moves at
// least, and over the 4(MK + KN) bytes of its operands alone. The pair of thresholds that lost the least time
// against the faster of the two over the precision sweep's shapes that the kernel would take (C of
// {listed(PRECISION_PANEL_SIDES)} rows against {AGAINST} columns and the transpose at K = {listed(PRECISION_PANEL_KS)}; cubes of {listed(PRECISION_SQUARES)};
// {AGAINST}^2 at K = {listed(PRECISION_SHORT_KS)}; squares of {listed(PRECISION_LONG_K_SIDES)} at K = {LONG_K}); INFINITY: never.
// kTf32*: wgmma_tf32; kFp32Accurate*: {TENSOR_KERNELS["fp32_accurate"]}; kRegisterSplit*: {REGISTER_SPLIT}.
inline constexpr double kTf32MinFlopsPerByte = {bound(t["precision"]["tf32"][0])};
inline constexpr double kTf32MinOperandFlopsPerByte = {bound(t["precision"]["tf32"][1])};
inline constexpr double kFp32AccurateMinFlopsPerByte = {bound(t["precision"]["fp32_accurate"][0])};
inline constexpr double kFp32AccurateMinOperandFlopsPerByte = {bound(t["precision"]["fp32_accurate"][1])};
inline constexpr double kRegisterSplitMinFlopsPerByte = {bound(t["precision"]["register_split"][0])};
inline constexpr double kRegisterSplitMinOperandFlopsPerByte = {bound(t["precision"]["register_split"][1])};

// The largest C (in outputs) over which best_tf32 runs longk_tf32 where best's long-K rule takes the product (and
// C's smaller side is past kLongkMinSmallSide): up to about this size it beat wgmma_tf32, past it wgmma_tf32's
// tiles won (docs/experiments/2026-12-06-shared-ring.md; set from that record, not by a sweep). The kTf32*
// thresholds above leave the sweep's products of longk_tf32 aside.
inline constexpr int64_t kLongkTf32MaxOutputs = {LONGK_TF32_MAX_OUTPUTS};

// The smaller side of C (rows or columns) up to which the fp32-accurate class takes {REGISTER_SPLIT}
// rather than {TENSOR_KERNELS["fp32_accurate"]}: of the precision sweep's sides, the one whose choices lost the least
// time against the faster of the two (0: never, or not measured).
inline constexpr int kRegisterSplitMaxSide = {t["register_split_max_side"]};

// The least K from which {TENSOR_KERNELS["fp32_accurate"]}'s error stayed within the fp32-accurate contract at every larger K measured
// (256 x K x 256 at K = {listed(PRECISION_ACCURACY_KS)}; INT_MAX: none) in every draw
// of the accuracy sweep; and the same for {REGISTER_SPLIT}, which the class takes from there
// (and from kFp32AccurateMinK).
inline constexpr int kFp32AccurateMinK = {t["accurate_min_k"]};
inline constexpr int kRegisterSplitMinK = {t["register_split_min_k"]};

{ozaki_comment}
inline constexpr double kOzakiMinOperandFlopsPerByte = {bound(t["ozaki"][0])};
inline constexpr double kOzakiMinK = {bound(t["ozaki"][1])};

}}  // namespace precision_table
"""


def print_timings(device: str, sms: int, measurements: list[dict]) -> None:
    kernels = (SKINNY_NAME, SHORTK_NAME, LONGK_NAME)  # after the tiles
    names = sorted({name for row in measurements for name in row["ms"]}, key=lambda n: (n in kernels, n))
    width = max(len(name) for name in names) + 2
    print(f"{device}, {sms} SMs: TFLOPS per configuration")
    print(f"{'sweep':<12}{'M':>6}{'N':>6}{'K':>6}" + "".join(f"{name:>{width}}" for name in names))
    for row in measurements:
        flops = 2 * row["M"] * row["N"] * row["K"]
        cells = "".join(f"{flops / (row['ms'][n] * 1e9):>{width}.2f}" if n in row["ms"] else f"{'-':>{width}}"
                        for n in names)
        print(f"{row.get('sweep', 'squares'):<12}{row['M']:>6}{row['N']:>6}{row['K']:>6}" + cells)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The description as written, and every option's default."""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m matmul_opt.tune", description=__doc__, formatter_class=_HelpFormatter)
    parser.add_argument("--repetitions", type=int, default=5, help="timed rounds per configuration and shape (median)")
    parser.add_argument("--write", action="store_true",
                        help=f"rewrite {TABLE.name} and {PRECISION_TABLE.name} (in a checkout only)")
    parser.add_argument("--json", metavar="FILE", help="also write the raw timings to FILE")
    parser.add_argument("--from-json", metavar="FILE", help="take the timings from FILE (a --json output) instead")
    parser.add_argument("--remeasure", metavar="SWEEPS",
                        help="with --from-json: measure these sweeps anew on this GPU (comma-separated: "
                             f"{', '.join(sweep_names())}) and take the others from FILE")
    parser.add_argument("--other-gpu", action="store_true",
                        help="with --remeasure: measure on a GPU of another model than FILE's (the same SM count); "
                             "the JSON and the precision table name it for the sweeps measured there")
    args = parser.parse_args(argv)
    remeasure = set(args.remeasure.split(",")) if args.remeasure else set()
    if remeasure and (not args.from_json or not remeasure <= set(sweep_names())):
        print(f"--remeasure needs --from-json and sweeps among {', '.join(sweep_names())}; got {args.remeasure!r}",
              file=sys.stderr)
        return 2
    if args.write and not TABLE.exists():
        print(f"--write needs a checkout of the repository: {TABLE} does not exist (this matmul_opt is installed "
              "without its sources). Run the tuner from a clone, or leave out --write to print the table.",
              file=sys.stderr)
        return 2
    if args.from_json:
        saved = json.loads(Path(args.from_json).read_text())
        device, sms, measurements = saved["device"], saved["sms"], saved["measurements"]
        accuracy = accuracy_draws(saved.get("accuracy"))
        measured_on = dict(saved.get("measured_on", {}))
    else:
        measured_on = {}
    if not args.from_json or remeasure:
        try:
            info = device_info()
        except Exception as exc:  # no GPU or no library: one line, as the report says it
            print(f"matmul_opt.tune: cannot measure without a usable GPU: {exc}", file=sys.stderr)
            return 2
        other_gpu = bool(remeasure) and info.name != device
        if remeasure and (info.sm_count != sms or (other_gpu and not args.other_gpu)):
            print(f"--remeasure: the saved timings are of {device} ({sms} SMs), this GPU is {info.name} "
                  f"({info.sm_count} SMs); --other-gpu measures on another model of the same SM count",
                  file=sys.stderr)
            return 2
        kept = [row for row in measurements if row["sweep"] not in remeasure] if remeasure else []
        for sweep in remeasure:
            if other_gpu:
                measured_on[sweep] = info.name
            else:
                measured_on.pop(sweep, None)
        if not other_gpu:
            device, sms = info.name, info.sm_count
        measurements = kept + measure(args.repetitions, remeasure or None)
        if not remeasure:
            accuracy = [measure_accuracy()]
        elif "accuracy" in remeasure:  # a draw beside the saved ones: each threshold holds in every draw
            accuracy = accuracy + [measure_accuracy()]
    print_timings(device, sms, measurements)
    t = tables(measurements, sms, accuracy, measured_on)
    table, precision_table = render(t), render_precision(t)
    print(table)
    print(precision_table)
    if args.json:
        Path(args.json).write_text(json.dumps({"device": device, "sms": sms, "measurements": measurements,
                                                  "accuracy": accuracy, **({"measured_on": measured_on}
                                                                           if measured_on else {})}, indent=1))
    if args.write:
        TABLE.write_text(table)
        PRECISION_TABLE.write_text(precision_table)
        print(f"rewrote {TABLE} and {PRECISION_TABLE.name}; rebuild with `invoke build`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
