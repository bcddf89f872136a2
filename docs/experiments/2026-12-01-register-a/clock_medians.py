"""The SM clock and power medians of each busy phase of sustained.py, from the nvidia-smi trace taken beside it.

    python3 clock_medians.py CLOCKS.csv SUSTAINED.txt

CLOCKS.csv: `nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader`; its
timestamps are local time, read here in the same time zone. The first 0.5 s of each phase is left out (the clock
settling after the library loads)."""
import datetime
import statistics
import sys

samples = []
for line in open(sys.argv[1]):
    stamp, mhz, watts, _ = (x.strip() for x in line.split(","))
    when = datetime.datetime.strptime(stamp, "%Y/%m/%d %H:%M:%S.%f").timestamp()
    samples.append((when, float(mhz.split()[0]), float(watts.split()[0])))
for line in open(sys.argv[2]):
    words = line.split()
    if "busy" not in words:
        continue
    start, end = map(float, words[words.index("busy") + 1].split("-"))
    inside = [s for s in samples if start + 0.5 <= s[0] <= end]
    if not inside:
        print(f"{line.rstrip()}  (no samples)")
        continue
    mhz = statistics.median_low(s[1] for s in inside)
    watts = statistics.median_low(s[2] for s in inside)
    print(f"{line.rstrip()}  SM clock median {mhz:.0f} MHz  power median {watts:.0f} W  ({len(inside)} samples)")
