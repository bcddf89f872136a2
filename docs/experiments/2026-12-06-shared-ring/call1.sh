#!/usr/bin/env bash
# Device call 1 of this record, from the branch's working tree with two libraries carried: .gitcarry/s21/lib_main.so.gz
# (main: a ring per warp) and .gitcarry/s21/lib_shared.so.gz (the branch: longk_tf32's block shares one ring). The
# GPU tests of the longk kernels with the branch's library; longk_tf32, longk and cuBLAS TF32 on long-K products with
# each library in alternating processes (two rounds each); Nsight Compute over the branch's longk_tf32.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
AB=docs/experiments/2026-12-06-write-streams/ab.py
for lib in main shared; do gunzip -c .gitcarry/s21/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_shared.so matmul_opt/libmatmul.so
step tests timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_long_k_kernel.py \
    tests/test_gpu_precision.py tests/test_gpu_kernels.py -k "longk or precision or dispatcher" > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
LONG=300x40x100000,128x100x200000,500x500x60000,200x300x20000,64x64x1048576,32x32x300000,16x16x500000
HELD=100x60x150000,256x48x80000,96x200x50000,48x48x400000,20x200x200000,150x150x100000,40x250x60000,70x70x700000
SMALL=12x100x100000,9x200x200000,10x60x300000,24x64x500000,9x9x2000000
for round in 1 2; do
    for lib in main shared; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step "times-$lib-$round" timeout 100 python3 $AB \
            --shapes $LONG,$HELD,$SMALL --kernels cublas_tf32,longk_tf32,longk --rounds 1 --repetitions 10 \
            --json $OUT/times-$lib-$round.json > $OUT/times-$lib-$round.txt 2>&1
    done
done
cat $OUT/times-shared-2.txt
step ncu timeout 100 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section ComputeWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats \
    --section LaunchStats -k regex:warp_k_slices -o /tmp/profile \
    python3 docs/experiments/2026-12-06-one-launch/fixed_cost.py --ncu --kernels longk_tf32 \
    --shapes 128x100x200000,70x70x700000,64x64x1048576 > $OUT/ncu.err 2>&1
ncu --import /tmp/profile.ncu-rep --csv --page details > $OUT/ncu-details.csv 2>> $OUT/ncu.err
wc -l $OUT/ncu-details.csv
