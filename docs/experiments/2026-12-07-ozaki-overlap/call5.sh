#!/usr/bin/env bash
# Device call 5 of this record, from main (3af2bb3), with .gitcarry/s10/lib_main.so.xz (main's kernels: call 3's
# lib_new) carried: Nsight Compute's throughput, memory, occupancy, scheduler and warp-state sections over the passes
# that run at about 2 TB/s at 4096^3 (the residue passes, the rebuild) and the column survey, one ozaki_int8 product
# (probe.py); the output into one tarball, $OUT/all.tgz.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD"
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s10/lib_main.so.xz /tmp/lib_main.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $LOG/gpu.txt
MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 150 ncu --kernel-name regex:'residues|rebuild|survey_along_columns' \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section SchedulerStats \
    --section WarpStateStats --section LaunchStats \
    python3 docs/experiments/2026-12-06-ozaki-check/probe.py 4096x4096x4096 > $LOG/ncu-passes.txt 2>&1
echo "rc $? in $SECONDS s" | tee $LOG/done.txt
tar czf $OUT/all.tgz -C /tmp log
