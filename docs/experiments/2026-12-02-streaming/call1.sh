#!/usr/bin/env bash
# Device call 1: the streaming ceiling and a register-fed product (probe), and Nsight Compute on skinny's launches.
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-streaming
timeout 120 $D/probe > $OUT/probe.txt 2>&1; cat $OUT/probe.txt
for shape in "1 4096 4096" "4096 16 4096" "16 16 500000" "8 4096 4096"; do
  timeout 60 ncu --clock-control none --kernel-name regex:skinny --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
    --section LaunchStats --section SchedulerStats python3 $D/ncu_driver.py skinny $shape > "$OUT/ncu-${shape// /x}.txt" 2>&1
  grep -E "Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|Grid Size|Block Size|Stall|Issued Warp|Eligible|No Eligible|L2 Hit|Mem Busy|Max Bandwidth|^  [a-z_]+ " "$OUT/ncu-${shape// /x}.txt" | head -40
done
