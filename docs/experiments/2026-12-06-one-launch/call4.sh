#!/usr/bin/env bash
# Device call 4 of this record: run from the checkout with .gitcarry/s14 (lib_new.so.gz: call 3's library, at
# e405cb2; lib_final.so.gz: the branch's head, whose reduction kernel reads the slices through the read-only cache as
# main's does, the sums in the launch from L2), .gitcarry/repo.bundle (the head and main) and .whl carried. Both in
# alternating processes on products whose slices go through the reduction kernel (fixed_cost.py); the head's GPU
# tests of split-K, skinny and longk; asv's grid suite at the head, for the gate against the last grid results on
# the same kind of GPU (H100: 9bb7818f; H200: 56682120):
#   python3 -m tools.regressions 9bb7818f HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
for lib in new final; do gunzip -c .gitcarry/s14/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_final.so matmul_opt/libmatmul.so
HERE=$PWD/docs/experiments/2026-12-06-one-launch
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
SHAPES=385x769x1537,500x500x60000,257x3072x1024,128x128x65536,16x16x500000
for i in 1 2; do
    for lib in new final; do
        step fixed-$lib-$i env MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 $HERE/fixed_cost.py --calls 300 \
            --shapes $SHAPES --kernels best,best_tf32 > $OUT/fixed-$lib-$i.txt 2>&1
    done
done
paste $OUT/fixed-new-1.txt $OUT/fixed-final-1.txt $OUT/fixed-new-2.txt $OUT/fixed-final-2.txt | awk '{print $1, $2, $3, $8, $13, $18}'
step tests timeout 100 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    -k "cooperative or cluster or longk or skinny or split" > $OUT/tests.log 2>&1
tail -2 $OUT/tests.log
M=$(python3 -m benchmarks.machine)
step asv timeout 300 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
