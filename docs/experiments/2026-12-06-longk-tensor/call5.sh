#!/usr/bin/env bash
# Device call 5 of this record (not run; for the next session with device time), from main with the library built
# from its tree carried as .gitcarry/s20/lib_final.so.gz: first the GPU tier and the long-K times of call 4
# (call4.sh), then Nsight Compute over longk_tf32 where it loses to cuBLAS TF32 (a C of 4 tiles: 128x100x200000,
# 70x70x700000) and where it nears the roofline (64x64x1048576), to tell the issue rate of mma.sync from the reads of
# each operand once per tile row or column (tensor pipe, L2 hit rate, DRAM throughput, warp stalls).
export OUT=${OUT:-/tmp/out}
bash docs/experiments/2026-12-06-longk-tensor/call4.sh
FINAL_OUT=$OUT OUT=/tmp/ncu-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/ncu.tgz -C /tmp ncu-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
step ncu timeout 200 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section ComputeWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats \
    -k regex:warp_k_slices -o /tmp/profile \
    python3 docs/experiments/2026-12-06-one-launch/fixed_cost.py --ncu --kernels longk_tf32 \
    --shapes 128x100x200000,70x70x700000,64x64x1048576 > $OUT/ncu.err 2>&1
ncu --import /tmp/profile.ncu-rep --csv --page details > $OUT/ncu-details.csv 2>> $OUT/ncu.err
wc -l $OUT/ncu-details.csv
