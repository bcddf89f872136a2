#!/usr/bin/env bash
# Nsight Compute on every rung of the tutorial on the H200: every launch of one product of each rung (after two of
# warm-up; one_product.py brackets it with cudaProfilerStart/Stop) at the shape its chapter discusses (4096^3 for
# the tiled rungs), with the sections the chapters read: speed of light (SM and DRAM throughput), memory workload
# (L2 hit rate), occupancy, launch statistics, scheduler and warp state, plus shared-memory bank conflicts and the
# stall reasons (cycles stalled per issued instruction). Writes one summary per rung under $OUT (ncu-KERNEL.txt)
# beside the whole report (ncu-KERNEL.full.txt); the chapters quote the summaries from docs/tutorial/ncu/.
# Run from the repository root with the library built: bash docs/tutorial/ncu/profile_rungs.sh [RUNG ...] (every
# rung, or only those named).
set -uo pipefail
OUT=${OUT:-/tmp/ncu}
mkdir -p "$OUT"
export PYTHONPATH=$PWD
METRICS='regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$'
METRICS+=',regex:^l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_(ld|st)\.sum$'
METRICS+=',regex:^l1tex__data_pipe_lsu_wavefronts_mem_shared_op_(ld|st)\.sum$'
while read -r kernel m n k; do
    [ $# -eq 0 ] || [[ " $* " == *" $kernel "* ]] || continue
    timeout 60 ncu --clock-control none --profile-from-start off \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
        --section WarpStateStats --section SchedulerStats --metrics "$METRICS" \
        python3 docs/tutorial/ncu/one_product.py "$kernel" "$m" "$n" "$k" > "$OUT/ncu-$kernel.full.txt" 2>&1
    grep -E "^  [a-zA-Z_<].*\(|relative error|Duration|Compute \(SM\) Throughput|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per Thread|Block Size|Grid Size|Issue Slots Busy|Issued Warp Per Scheduler|No Eligible|Eligible Warps Per Scheduler|Warp Cycles Per Issued|bank_conflicts|wavefronts_mem_shared|stalled_" \
        "$OUT/ncu-$kernel.full.txt" > "$OUT/ncu-$kernel.txt"
    echo "== $kernel $m x $n x $k: $(wc -l < "$OUT/ncu-$kernel.txt") lines"
done <<'SHAPES'
naive 4096 4096 4096
optimized 4096 4096 4096
advanced 4096 4096 4096
warptile 4096 4096 4096
pipelined 4096 4096 4096
splitk 256 256 65536
tma 4096 4096 4096
streamk 4096 4096 4096
skinny 8 4096 4096
shortk 4096 4096 16
longk 32 32 300000
mma_tf32 4096 4096 4096
wgmma_tf32 4096 4096 4096
wgmma_3xtf32 4096 4096 4096
ozaki_int8 4096 4096 4096
SHAPES
