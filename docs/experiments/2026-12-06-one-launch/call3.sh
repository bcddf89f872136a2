#!/usr/bin/env bash
# Device call 3 of this record: run from the checkout with .gitcarry/s14 (lib_new.so.gz: this change, split-K's
# slices added up in the cooperative launch that writes them, built here; lib_probe.so.gz: the same with the probe's
# hook, two getenv lines in skinny.cu's `planned` that let MM_SKINNY_PROBE_QUADS and MM_SKINNY_PROBE_SPLITS override
# the register plan's lane quads and K slices), .gitcarry/repo.bundle (the branch's head and main) and .whl carried.
# The change with sums in the launch allowed and barred (mm_split_k_sums_in_launch 0: main's path, the slices'
# reduction kernel) in alternating processes (fixed_cost.py); a sweep of skinny's K slices and lane quads on the
# probe library; asv's grid suite at the branch's head, for the gate against the last grid results on the same kind
# of GPU (H100: 9bb7818f; H200: 56682120):
#   python3 -m tools.regressions 9bb7818f HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
for lib in new probe; do gunzip -c .gitcarry/s14/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_new.so matmul_opt/libmatmul.so
HERE=$PWD/docs/experiments/2026-12-06-one-launch
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
SHAPES=1x1x1000000,8x8x16384,1x1x131072,16x16x500000,32x32x300000,5x7x200000,3x29x250000,20x30x100000
SHAPES+=,1x32x400000,32x1x400000,64x16x300000
for i in 1 2; do
    for sums in 1 0; do
        step fixed$sums-$i env MATMUL_OPT_LIBRARY=/tmp/lib_new.so timeout 60 python3 $HERE/fixed_cost.py \
            --shapes $SHAPES --kernels best,cublas --sums-in-launch $sums > $OUT/fixed$sums-$i.txt 2>&1
    done
done
paste $OUT/fixed1-1.txt $OUT/fixed0-1.txt $OUT/fixed1-2.txt $OUT/fixed0-2.txt | awk '{print $1, $2, $3, $8, $13, $18}'
step sweep env MATMUL_OPT_LIBRARY=/tmp/lib_probe.so timeout 60 python3 $HERE/fixed_cost.py --calls 300 \
    --shapes 1x1x1000000,1x1x131072,8x8x16384,1x32x400000 --kernels best --probe plan,33,66,132,198,264 \
    > $OUT/sweep.txt 2>&1
cat $OUT/sweep.txt
step quads env MATMUL_OPT_LIBRARY=/tmp/lib_probe.so timeout 60 python3 $HERE/fixed_cost.py --calls 300 \
    --shapes 1x1500x9000,1x3000x9000,4x1500x9000,1x2500x5000,2x1200x20000 --kernels best,cublas \
    --probe plan,4:1,4:2,8:2,8:4,8:5,16:4,16:8,32:8 > $OUT/quads.txt 2>&1
cat $OUT/quads.txt
M=$(python3 -m benchmarks.machine)
step asv timeout 300 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
