"""Condenses Nsight Compute's text output (--metrics gpu__time_duration.sum and
dram__throughput.avg.pct_of_peak_sustained_elapsed) to one line per kernel launch: the kernel's name up to its
template arguments, its grid and block, its time and its DRAM throughput as a share of the peak.

    python3 ncu_times.py NCU_LOG
"""
import re
import sys

HEADER = re.compile(r"^  (\S.*?) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\), Context")
METRIC = re.compile(r"^\s+(gpu__time_duration\.sum|dram__throughput\.avg\.pct_of_peak_sustained_elapsed)\s+(\S+)\s+([\d.,]+)")

launch = None
for line in open(sys.argv[1], errors="replace"):
    header = HEADER.match(line)
    if header:
        if launch:
            print(launch)
        full = header.group(1).replace("(anonymous namespace)::", "")
        named = re.search(r"([A-Za-z_]\w*(<[^()]*>)?)\(", full)
        name = named.group(1) if named else full.split()[0]
        launch = f"{name:40s} grid {header.group(2)}x{header.group(3)}x{header.group(4)} block {header.group(5)}"
        continue
    metric = METRIC.match(line)
    if metric and launch:
        value = metric.group(3).replace(",", "")
        launch += f"  {value} {metric.group(2)}" if metric.group(1).startswith("gpu") else f"  dram {value}%"
if launch:
    print(launch)
