"""Regenerate the decision table of the `best` kernel (cuda/kernels/best_table.h) from measurements.

    python -m matmul_opt.tune                 # measure, print the table and the timings
    python -m matmul_opt.tune --write         # also rewrite kRows in best_table.h (then rebuild)
    python -m matmul_opt.tune --json t.json   # keep the raw timings

For square products of growing size it times every tile configuration of `best` (forced through
mm_best_force, no split-K) and keeps, per size, the fastest. `best` looks its configuration up by output
elements per SM (M*N / SMs), so each size becomes a row whose bound lies halfway (geometrically) between the
per-SM sizes where the winner changes. The split-K and ragged-wave constants are left as they are.
"""
from __future__ import annotations

import argparse
import ctypes
import json
import math
import re
from pathlib import Path

from ._library import check, library
from .api import benchmark, device_info

TABLE = Path(__file__).resolve().parent.parent / "cuda" / "kernels" / "best_table.h"
SIZES = [256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192]


def config_names() -> list[str]:
    lib = library()
    names = []
    for config in range(lib.mm_best_config_count()):
        name = ctypes.c_char_p()
        check(lib.mm_best_config_name(config, ctypes.byref(name)))
        names.append(name.value.decode())
    return names


def measure(sizes, repetitions: int) -> list[dict]:
    lib = library()
    rows = []
    try:
        for size in sizes:
            K = min(size, 4096)
            times = {}
            for config in range(lib.mm_best_config_count()):
                check(lib.mm_best_force(config, 1))
                times[config] = benchmark("best", size, size, K, warmup=2, repetitions=repetitions).ms
            rows.append({"M": size, "N": size, "K": K, "ms": times})
    finally:
        check(lib.mm_best_force(-1, 1))
    return rows


def table_rows(measurements: list[dict], sms: int) -> list[tuple[int, int]]:
    """[(max_mn_per_sm, config)], increasing, the last bound open (INT64_MAX)."""
    winners = []
    for row in measurements:
        best = min(row["ms"], key=row["ms"].get)
        winners.append((row["M"] * row["N"] / sms, best))
    rows = []
    for (mn, config), following in zip(winners, winners[1:] + [None]):
        if following is not None and following[1] == config:
            continue
        bound = "INT64_MAX" if following is None else int(math.sqrt(mn * following[0]))
        rows.append((bound, config))
    merged = []
    for bound, config in rows:
        if merged and merged[-1][1] == config:
            merged[-1] = (bound, config)
        else:
            merged.append((bound, config))
    return merged


def render(rows: list[tuple], names: list[str]) -> str:
    body = "".join(f"    {{{bound}, {config}}},  // {names[config]}\n" for bound, config in rows)
    return "constexpr Row kRows[] = {\n" + body + "};"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m matmul_opt.tune", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=SIZES)
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--write", action="store_true", help=f"rewrite kRows in {TABLE.name}")
    parser.add_argument("--json", help="write the raw timings here")
    args = parser.parse_args(argv)
    device = device_info()
    names = config_names()
    measurements = measure(args.sizes, args.repetitions)
    print(f"{device.name}, {device.sm_count} SMs: TFLOPS per configuration (no split-K)")
    width = max(len(name) for name in names) + 2
    print(f"{'M=N':>6}{'K':>6}" + "".join(f"{name:>{width}}" for name in names))
    for row in measurements:
        flops = 2 * row["M"] * row["N"] * row["K"]
        print(f"{row['M']:>6}{row['K']:>6}" + "".join(f"{flops / (row['ms'][c] * 1e9):>{width}.2f}" for c in range(len(names))))
    table = render(table_rows(measurements, device.sm_count), names)
    print(table)
    if args.json:
        Path(args.json).write_text(json.dumps({"device": device.name, "sms": device.sm_count, "configs": names,
                                               "measurements": measurements}, indent=1))
    if args.write:
        text = TABLE.read_text()
        TABLE.write_text(re.sub(r"constexpr Row kRows\[\] = \{.*?\};", lambda _: table, text, flags=re.S))
        print(f"rewrote {TABLE}; rebuild with `invoke build`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
