#!/usr/bin/env bash
# Device call 6 of this record (the next session's first), from main at the review commit with the library built
# from its tree carried as .gitcarry/s21/lib_main.so.gz: the whole GPU tier, best_tf32's long-K times, the four
# sanitizers over longk, longk_tf32 and best_tf32, then Nsight Compute over longk_tf32 and cuBLAS TF32 where
# longk_tf32 loses (C of 4 tiles: 128x100x200000, 70x70x700000) and where it nears the roofline (64x64x1048576).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
gunzip -c .gitcarry/s21/lib_main.so.gz > matmul_opt/libmatmul.so
step tests timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head; tail -1 $OUT/tests.log
step times timeout 45 python3 docs/experiments/2026-12-06-write-streams/ab.py \
    --shapes 300x40x100000,128x100x200000,64x64x1048576,32x32x300000,16x16x500000,70x70x700000 \
    --kernels best,cublas_tf32,longk_tf32,best_tf32 --rounds 3 --repetitions 10 > $OUT/times.txt 2>&1
cat $OUT/times.txt
step ncu timeout 150 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section ComputeWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section LaunchStats -o /tmp/profile \
    python3 docs/experiments/2026-12-06-one-launch/fixed_cost.py --ncu --kernels longk_tf32,cublas_tf32 \
    --shapes 128x100x200000,70x70x700000,64x64x1048576 > $OUT/ncu.err 2>&1
ncu --import /tmp/profile.ncu-rep --csv --page details > $OUT/ncu-details.csv 2>> $OUT/ncu.err
wc -l $OUT/ncu-details.csv
step sanitize timeout 170 python3 -m tools.sanitize --kernels longk,longk_tf32,best_tf32 --jobs 8 \
    > $OUT/sanitize.txt 2>&1
tail -12 $OUT/sanitize.txt
