"""Large products whose tma 128x256x32 tiles make a ragged last wave: that configuration (best's table choice from
95325 outputs per SM) against the stream-K configurations, best and cuBLAS, in rounds (GPU needed).

    python3 waves.py [--rounds 3] [--json out.json]

Per shape: the tiles, waves and last-wave efficiency (tiles / (waves rounded up x SMs)), and the median time of each
variant over the rounds with its ratio to cuBLAS fp32.
"""
import argparse
import json
import math
import statistics

import matmul_opt
from matmul_opt import _library
from matmul_opt.tune import config_names

SHAPES = [(2048, 11008, 4096), (3000, 5120, 5120), (2560, 9000, 3000), (1920, 7000, 4096), (2200, 6000, 3000),
          (4000, 4500, 2048), (1500, 12000, 2500), (6000, 3000, 3000), (5000, 7000, 2000), (2048, 8192, 2048),
          (16000, 1024, 4096), (7000, 2600, 1500)]
VARIANTS = {"tma 128x256x32": ("tma 128x256x32", 1), "streamk tail3": ("streamk 128x256x32 tail3", 0),
            "streamk 128x256": ("streamk 128x256x32", 0), "streamk 128x128": ("streamk 128x128x16", 0),
            "best": None, "cublas": None}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()
    lib = _library.library()
    names = config_names()
    sms = matmul_opt.device_info().sm_count
    times = {}
    for r in range(args.rounds):
        for M, N, K in SHAPES:
            order = list(VARIANTS)[r % len(VARIANTS):] + list(VARIANTS)[:r % len(VARIANTS)]
            for v in order:
                forced = VARIANTS[v]
                _library.check(lib.mm_best_force(-1, 1) if forced is None else lib.mm_best_force(names.index(forced[0]), forced[1]))
                kernel = "cublas" if v == "cublas" else "best"
                ms = matmul_opt.benchmark(kernel, M, N, K, warmup=2, repetitions=5).ms
                times.setdefault((M, N, K), {}).setdefault(v, []).append(ms)
    _library.check(lib.mm_best_force(-1, 1))
    print(f"{'shape':<18}{'tiles':>6}{'waves':>7}{'eff':>6}" + "".join(f"{v:>24}" for v in VARIANTS))
    rows = []
    for (M, N, K), by in times.items():
        tiles = math.ceil(M / 128) * math.ceil(N / 256)
        waves = tiles / sms
        efficiency = tiles / (math.ceil(waves) * sms)
        med = {v: statistics.median(t) for v, t in by.items()}
        cells = "".join(f"{med[v]:>12.4f} {med['cublas'] / med[v]:>6.3f}x   " for v in VARIANTS)
        print(f"{f'{M}x{N}x{K}':<18}{tiles:>6}{waves:>7.2f}{efficiency:>6.0%}{cells}")
        rows.append({"shape": [M, N, K], "tiles": tiles, "times": by})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
