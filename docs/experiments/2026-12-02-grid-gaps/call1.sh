#!/usr/bin/env bash
# Device call 1: where best's choice or a peeled ragged edge beats best on the grid's weak shapes (peel_probe),
# the skinny mainloop with its next loads in flight (prefetch_probe), and Nsight Compute on skinny at 8x4096x4096.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-grid-gaps
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > $OUT/env.txt
step prefetch bash -c "timeout 60 $D/prefetch_probe > $OUT/prefetch.txt 2>&1; cat $OUT/prefetch.txt"
step peel bash -c "timeout 300 $D/peel_probe > $OUT/peel.txt 2>&1; cat $OUT/peel.txt"
step ncu bash -c "timeout 60 ncu --clock-control none --kernel-name regex:skinny --launch-skip 2 --launch-count 1 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
  --section LaunchStats --section SchedulerStats python3 docs/experiments/2026-12-02-streaming/ncu_driver.py skinny 8 4096 4096 \
  > $OUT/ncu-8x4096x4096.txt 2>&1; grep -E 'Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Stall|Issued Warp|Eligible|L2 Hit|Mem Busy' $OUT/ncu-8x4096x4096.txt | head -30"
