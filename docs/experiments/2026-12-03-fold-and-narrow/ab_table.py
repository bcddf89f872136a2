"""The A/B table of the call scripts: per shape and kernel, the median of each label's rounds (speed.py's JSON
lines), their ratio, the spread of the rounds, and each label's ratio to a baseline kernel from the same process.

    python3 docs/experiments/2026-12-03-fold-and-narrow/ab_table.py LOG.jsonl KERNEL BASELINE OLD NEW
"""
import json
import statistics as st
import sys
from collections import defaultdict


def main() -> int:
    path, kernel, baseline, old, new = sys.argv[1:6]
    ms = defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        ms[(r["shape"], r["label"], r["kernel"])].append(r["ms"])
    shapes = list(dict.fromkeys(s for s, _, _ in ms))
    print(f"{'shape':<16}{old + ' us':>12}{new + ' us':>12}{'new/old':>9}{baseline + ' us':>16}"
          f"{'old vs base':>12}{'new vs base':>12}  separated")
    worst, below = 1.0, []
    for s in shapes:
        a, b = ms[(s, old, kernel)], ms[(s, new, kernel)]
        base = st.median(ms[(s, old, baseline)] + ms[(s, new, baseline)])
        ratio = st.median(b) / st.median(a)
        separated = "slower" if min(b) > max(a) else "faster" if max(b) < min(a) else ""
        if separated == "slower":
            worst = max(worst, ratio)
        if base / st.median(b) < 0.95:
            below.append(s)
        print(f"{s:<16}{st.median(a) * 1e3:12.1f}{st.median(b) * 1e3:12.1f}{ratio:9.3f}{base * 1e3:16.1f}"
              f"{base / st.median(a):12.3f}{base / st.median(b):12.3f}  {separated}")
    gm = lambda label: st.geometric_mean(  # noqa: E731
        st.median(ms[(s, old, baseline)] + ms[(s, new, baseline)]) / st.median(ms[(s, label, kernel)]) for s in shapes)
    print(f"geometric mean vs {baseline}: {old} {gm(old):.3f}, {new} {gm(new):.3f}; {new} below 0.95x: {len(below)} {below}")
    print(f"worst separated slowdown of {new}: {worst:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
