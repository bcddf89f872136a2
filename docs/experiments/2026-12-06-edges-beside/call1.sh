#!/usr/bin/env bash
# Device call 1 of this record: run from the checkout with .gitcarry/s15/lib_head.so.gz (main's head, built here),
# .gitcarry/repo.bundle and .whl carried. The head's GPU tests of skinny, longk, split-K and the shape grid and the
# sanitizers over skinny and longk (the review commits that moved the occupancy helper into the core had not run on
# a GPU); Nsight Compute's memory and warp-state sections for best and cuBLAS on three one-row products and 1153^3;
# asv's grid suite at the head, for the gate against 9bb7818f (H100) or 56682120 (H200):
#   python3 -m tools.regressions 9bb7818f HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'cp -f /tmp/profile.ncu-rep $FINAL_OUT/ 2>/dev/null; tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs
      tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
gunzip -c .gitcarry/s15/lib_head.so.gz > matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
cat $OUT/gpu.txt
step tests timeout 170 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    tests/test_gpu_shape_grid.py -k "cooperative or cluster or longk or skinny or split or grid or held_out" \
    > $OUT/tests.log 2>&1
tail -3 $OUT/tests.log
step ncu timeout 120 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats -o /tmp/profile \
    python3 docs/experiments/2026-12-06-one-launch/fixed_cost.py --ncu --kernels best,cublas \
    --shapes 1x1x1000000,1x1500x9000,1x4096x4096,1153x1153x1153 > $OUT/ncu.err 2>&1
ncu --import /tmp/profile.ncu-rep --csv --page details > $OUT/ncu-details.csv 2>> $OUT/ncu.err
wc -l $OUT/ncu-details.csv
M=$(python3 -m benchmarks.machine)
step asv timeout 250 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
step sanitize timeout 200 python3 -m tools.sanitize --kernels skinny,longk --jobs 4 > $OUT/sanitize.txt 2>&1
tail -9 $OUT/sanitize.txt
