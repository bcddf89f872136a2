"""Split-count rules for best's cp.async configurations, scored offline on call 2's sweep (logs/align.json): for each
aligned product with K >= 512 and each pipelined configuration, the time at the split count a rule picks (the
nearest count the sweep timed) against the fastest count the sweep found for that configuration. No GPU needed.

    python3 docs/experiments/2026-12-02-grid-gaps/split_rules.py

Rules: "now" (core/schedule/split_k.h: one wave of resident blocks, slices of at least 256 of K); "two waves" (two
waves, slices of at least 128); "busiest SM" (the count that minimises the busiest SM's blocks times each block's K,
where an SM with fewer blocks than the configuration keeps resident runs them proportionally slower). The rules are
scored at the nearest count the sweep timed, which costs them where they pick a count it did not time; "the
library's" is the time of the count the library itself chose (split count 0 in the sweep), exact.
"""
import json
import math
from pathlib import Path

SMS = 132
RESIDENT = {"pipelined 128x256x16": 1, "pipelined 128x128x16": 2, "pipelined 128x64x16": 4, "pipelined 64x64x16": 5,
            "pipelined 32x128x16": 4, "pipelined 128x32x16": 4, "pipelined 64x128x16": 3}  # min_blocks_per_sm
TIMED = [1, 2, 3, 4, 6, 8, 12]


def tiles(M, N, config):
    bm, bn = map(int, config.split()[1].split("x")[:2])
    return math.ceil(M / bm) * math.ceil(N / bn)


def by_waves(M, N, K, config, waves, min_slice_k):
    return max(1, min(SMS * RESIDENT[config] * waves // tiles(M, N, config), K // min_slice_k))


def busiest_sm(M, N, K, config, min_slice_k=128):
    def cost(s):
        per_sm = tiles(M, N, config) * s / SMS
        occupancy = min(1.0, per_sm / RESIDENT[config])
        return math.ceil(per_sm) * math.ceil(K / s) / occupancy
    return min(range(1, max(1, min(64, K // min_slice_k)) + 1), key=cost)


RULES = {
    "now": lambda M, N, K, c: by_waves(M, N, K, c, 1, 256),
    "two waves": lambda M, N, K, c: by_waves(M, N, K, c, 2, 128),
    "busiest SM": busiest_sm,
}


def main():
    sweep = json.loads((Path(__file__).parent / "logs" / "align.json").read_text())
    ratios = {name: [] for name in RULES}
    for row in sweep:
        M, N, K = row["M"], row["N"], row["K"]
        if not row["aligned"] or K < 512:
            continue
        times = {}
        for key, us in row["forced"].items():
            config, splits = key.rsplit("/", 1)
            if config in RESIDENT:
                times.setdefault(config, {})[int(splits)] = us
        for config, by_splits in times.items():
            library = by_splits.pop(0)  # the count the library chose itself (split count 0)
            fastest = min(by_splits.values())
            ratios.setdefault("the library's", []).append(library / fastest)
            for name, rule in RULES.items():
                splits = min(TIMED, key=lambda t: (abs(t - rule(M, N, K, config)), t))
                ratios[name].append(by_splits[splits] / fastest)
    for name, values in ratios.items():
        mean = math.exp(sum(map(math.log, values)) / len(values))
        print(f"{name:<11} {len(values)} pairs: geometric mean {mean:.3f}x the fastest count's time, worst "
              f"{max(values):.2f}x")


if __name__ == "__main__":
    main()
