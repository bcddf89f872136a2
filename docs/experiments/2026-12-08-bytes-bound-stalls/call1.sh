#!/usr/bin/env bash
# Device call 1 of this record, from main (its build is .gitcarry/s20/lib_tiny.so.xz: tools/cubin_compare finds its 545
# kernels the same machine code as a build of main at 3cf8e43): on the GPU lent (an H200 if one comes; say which),
# Nsight Compute on every kernel `best` launches for the grid's bytes-bound products that issue 32 item 3 measures on an
# H200 (floor the bytes term, at least 10 us) and that an H100 ran under 75% of the roofline, one product per process
# (probe.py beside this script: the profiled product only, after one that loads the modules), with the sections that say
# where a kernel waits: speed of light, occupancy, launch statistics, scheduler and warp state statistics (stall
# reasons), memory workload; and, for the two kernels with the most time, source-level stall sampling (SourceCounters).
# Everything into $OUT/stalls.tgz, re-packed after each step.
LOG=/tmp/stalls; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
PROBE=docs/experiments/2026-12-08-bytes-bound-stalls/probe.py
pack() { tar czf $OUT/stalls.tgz -C /tmp stalls; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to .gitcarry/s20/lib_tiny.so.xz matmul_opt/libmatmul.so
SECTIONS="--section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats"
SECTIONS+=" --section WarpStateStats --section MemoryWorkloadAnalysis"
for shape in 4096x16x4096 7000x5x3000 1x1500x9000 9000x24x2000 4096x4096x16 16x16x500000 32x32x300000; do
    fits 45 && step "ncu $shape" timeout 45 ncu --profile-from-start off $SECTIONS --csv --page details \
        python3 $PROBE best $shape > $LOG/ncu-$shape.csv 2> $LOG/ncu-$shape.err
    pack
done
for shape in 9000x24x2000 4096x16x4096; do
    fits 60 && step "source $shape" timeout 60 ncu --profile-from-start off --section SourceCounters --csv \
        --page source --print-source sass python3 $PROBE best $shape > $LOG/source-$shape.csv 2> $LOG/source-$shape.err
    pack
done
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
