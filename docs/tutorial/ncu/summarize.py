"""The tutorial's Nsight Compute table (docs/tutorial/ncu/README.md) from the per-rung summaries that
profile_rungs.sh writes (ncu-KERNEL.txt, committed beside this script): for each rung, its longest kernel's time,
SM and DRAM throughput, issue rate, occupancy, shared-memory bank conflicts and its three largest stall reasons.

    python3 docs/tutorial/ncu/summarize.py          # rewrite README.md
    python3 docs/tutorial/ncu/summarize.py --check  # exit 1 when README.md is stale
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNGS = ["naive", "optimized", "advanced", "warptile", "pipelined", "splitk", "tma", "streamk", "skinny", "shortk",
         "longk", "mma_tf32", "wgmma_tf32", "wgmma_3xtf32", "ozaki_int8"]
UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}
HEADER = """# Nsight Compute on each rung (H200)

`profile_rungs.sh` profiled one product of each rung on the H200 (`ncu --clock-control none`, at the shape its
chapter discusses) and kept a summary per rung (`ncu-KERNEL.txt` here). `summarize.py` writes this table from them;
where a rung launches several kernels (split-K's reduction, the 3xTF32 operand passes) the row is its longest one.
Stalls are cycles per issued instruction spent in each reason (the three largest, "selected" and "not selected"
left out); issue is the warps issued per scheduler per cycle (at most 1); bank conflicts are the extra shared-memory
wavefronts over all of them, loads and stores through the load/store unit ("no load or store": the kernel reads
shared memory only through the tensor cores' own path, wgmma).

| rung | shape | kernel µs | SM % | DRAM % | issue | occupancy % | registers | bank conflicts | largest stalls |
|---|---|---|---|---|---|---|---|---|---|
"""


def value(block: str, label: str) -> str | None:
    match = re.search(rf"^\s+{re.escape(label)}\s+(\S+)?\s+([\d,.]+)\s*$", block, re.M)
    return None if match is None else match.group(2).replace(",", "")


def duration_us(block: str) -> float:
    match = re.search(r"^\s+Duration\s+(\S+)\s+([\d,.]+)\s*$", block, re.M)
    return float(match.group(2).replace(",", "")) * UNIT_US[match.group(1)] if match else 0.0


def blocks(text: str) -> list[str]:
    """The summary's kernels: each starts at a line naming the kernel and its launch; the metrics before the first
    such line (ncu prints them first for a kernel whose name line was not kept) belong to it."""
    starts = [m.start() for m in re.finditer(r"^  \S.*\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", text, re.M)]
    if not starts:
        return [text]
    bounds = starts + [len(text)]
    return [text[:bounds[1]]] + [text[a:b] for a, b in zip(bounds[1:], bounds[2:])] if starts[0] > 0 else \
        [text[a:b] for a, b in zip(bounds, bounds[1:])]


def row(rung: str) -> str:
    text = (HERE / f"ncu-{rung}.txt").read_text()
    shape = " x ".join(text.split("\n", 1)[0].split()[1:4])
    block = max(blocks(text), key=duration_us)
    stalls = {m.group(1): float(m.group(2)) for m in re.finditer(
        r"smsp__average_warps_issue_stalled_(\w+?)_per_issue_active\.ratio\s+\S+\s+([\d.]+)", block)}
    top = sorted((s for s in stalls if s not in ("selected", "not_selected")), key=stalls.get, reverse=True)[:3]
    conflicts = sum(float(value(block, f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum") or 0)
                    for op in ("ld", "st"))
    wavefronts = sum(float(value(block, f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum") or 0)
                     for op in ("ld", "st"))
    share = f"{100 * conflicts / wavefronts:.1f}%" if wavefronts else "no load or store"
    us = duration_us(block)
    cells = [f"`{rung}`", shape, f"{us:,.0f}" if us >= 100 else f"{us:.1f}", value(block, "Compute (SM) Throughput"),
             value(block, "DRAM Throughput"), value(block, "Issued Warp Per Scheduler"),
             value(block, "Achieved Occupancy"), value(block, "Registers Per Thread"), share,
             ", ".join(f"{s.replace('_', ' ')} {stalls[s]:.2f}" for s in top)]
    return "| " + " | ".join(c if c is not None else "-" for c in cells) + " |"


def render() -> str:
    return HEADER + "\n".join(row(rung) for rung in RUNGS) + "\n"


def main(argv: list[str]) -> int:
    readme = HERE / "README.md"
    if "--check" in argv:
        return 0 if readme.exists() and readme.read_text() == render() else 1
    readme.write_text(render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
