#!/usr/bin/env bash
# The third device call for the register-a record: main's wgmma_3xtf32 profiled at the clock the GPU chooses
# (ncu --clock-control none) when idle before and after about 4 s of load at the power limit, beside ncu's locked
# clock, at 4096^3 and 8192^3: does the tensor pipe run emptier at the power-limited clock, or is the clock lower
# than nvidia-smi's samples say? Run from main's tree with its library built. Logs in $OUT/call3.
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
HERE=docs/experiments/2026-12-01-register-a
L=${OUT:-/tmp/register-a}/call3
mkdir -p "$L"
profile() {  # profile NAME CLOCK SIZE CALLS SKIP
    timeout 100 ncu --clock-control $2 --kernel-name regex:wgmma_3xtf32_kernel --launch-skip $5 --launch-count 1 \
        --section SpeedOfLight --section ComputeWorkloadAnalysis python3 $HERE/load_then_profile.py $3 $4 \
        > $L/ncu-$1.txt 2>&1
    echo "== $1 (rc=$?): $(grep -E 'SM Frequency|Duration|SM Busy' $L/ncu-$1.txt | awk '{print $1, $2, $NF}' | paste -sd' ')"
}
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > "$L/clocks.csv" &
SAMPLER=$!
profile 4096-locked base 4096 2 1
profile 4096-cold none 4096 2 1
profile 4096-hot none 4096 400 3600
sleep 5
profile 8192-locked base 8192 2 1
profile 8192-cold none 8192 2 1
profile 8192-hot none 8192 50 450
kill $SAMPLER
