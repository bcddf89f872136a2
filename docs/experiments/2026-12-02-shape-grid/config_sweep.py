"""Every configuration of best (forced, with the split-K rule's slices) beside best's own choice and cuBLAS on every
shape of the shape grid: which configuration each shape wants, against what best picks.

    python3 docs/experiments/2026-12-02-shape-grid/config_sweep.py [--json out.json]
"""
import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from matmul_opt import _library, benchmark, benchmark_read_bandwidth, device_info  # noqa: E402
from matmul_opt.shape_grid import GRID, roofline_ms  # noqa: E402
from matmul_opt.tune import AUTO_SPLITS, SKINNY_MAX_SIDE, SKINNY_NAME, config_names  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()
    lib = _library.library()
    info = device_info()
    hbm = benchmark_read_bandwidth()
    names = config_names()
    rows = []
    print(f"{info.name}: HBM read {hbm:.0f} GB/s; us per product; winner = fastest forced configuration")
    for shape in GRID:
        M, N, K = shape.M, shape.N, shape.K
        times = {"cublas": benchmark("cublas", M, N, K, warmup=2, repetitions=5).ms,
                 "best": benchmark("best", M, N, K, warmup=2, repetitions=5).ms}
        try:
            for config, name in enumerate(names):
                if name == SKINNY_NAME and min(M, N) > SKINNY_MAX_SIDE:
                    continue
                _library.check(lib.mm_best_force(config, AUTO_SPLITS))
                times[name] = benchmark("best", M, N, K, warmup=2, repetitions=5).ms
        finally:
            _library.check(lib.mm_best_force(-1, 1))
        floor = roofline_ms(M, N, K, info.fp32_peak_gflops, hbm)
        forced = {k: v for k, v in times.items() if k not in ("cublas", "best")}
        winner = min(forced, key=forced.get)
        print(f"{shape.klass:<11}{shape.name:<20} floor {1e3 * floor:8.1f}  cublas {1e3 * times['cublas']:8.1f}  "
              f"best {1e3 * times['best']:8.1f} ({times['cublas'] / times['best']:.2f}x)  winner {winner} "
              f"{1e3 * forced[winner]:8.1f} ({times['cublas'] / forced[winner]:.2f}x)", flush=True)
        rows.append({"klass": shape.klass, "M": M, "N": N, "K": K, "ms": times})
    if args.json:
        Path(args.json).write_text(json.dumps({"device": info.name, "hbm_gb_per_s": hbm, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
