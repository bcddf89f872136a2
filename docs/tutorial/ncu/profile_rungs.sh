#!/usr/bin/env bash
# Nsight Compute on every rung of the tutorial at 4096^3 on the H200: every launch of one product of each rung
# (after two of warm-up; one_product.py brackets it with cudaProfilerStart/Stop), with the sections the chapters
# read: speed of light (SM and DRAM throughput), memory workload (shared-memory bank conflicts, L2 hit rate),
# occupancy, launch statistics and warp state (stall reasons). Writes one summary per rung under $OUT (ncu-KERNEL.txt); the chapters quote them from docs/tutorial/ncu/.
# Run from the repository root with the library built: bash docs/tutorial/ncu/profile_rungs.sh
set -uo pipefail
OUT=${OUT:-/tmp/ncu}
mkdir -p "$OUT"
export PYTHONPATH=$PWD
for kernel in naive optimized advanced warptile pipelined tma streamk mma_tf32 wgmma_tf32 wgmma_3xtf32; do
    timeout 45 ncu --clock-control none --profile-from-start off \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
        --section WarpStateStats --section SchedulerStats \
        python3 docs/tutorial/ncu/one_product.py "$kernel" 4096 4096 4096 > "$OUT/ncu-$kernel.full.txt" 2>&1
    grep -E "^  [a-zA-Z_].*\(|Duration|Compute \(SM\) Throughput|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Bank|Achieved Occupancy|Theoretical Occupancy|Registers Per Thread|Shared Memory Configuration|Block Size|Grid Size|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Stall" \
        "$OUT/ncu-$kernel.full.txt" > "$OUT/ncu-$kernel.txt"
    echo "== $kernel: $(wc -l < "$OUT/ncu-$kernel.txt") lines"
done
