#!/usr/bin/env bash
# Device call 2 of this record: run from the checkout with .gitcarry/s14 carried (lib_main.so.gz: main at ec175ac;
# lib_new.so.gz: the bulk plan's groups of Y's rows (this branch's head); lib_probe.so.gz: call 1's forced plans).
# main and the groups in alternating processes on small-side shapes (those whose plan changes and those whose plan
# should not); forced bulk plans on narrow large sides with X along L and more than 8 rows of Y (which the register
# mainloop takes today); the GPU tests of skinny and of the shape grid on the new library; the four sanitizers
# over skinny.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
D=docs/experiments/2026-12-06-bulk-groups
for lib in main new probe; do gunzip -c .gitcarry/s14/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_new.so matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
SHAPES=9000x24x2000,9000x12x2000,10000x12x6000,20x10000x3000,8188x11x700,24x9100x1500,5600x20x700
SHAPES+=,17x8000x8000,11x14336x2500,13x5120x13824,5000x20x3000,6004x20x2500,6x6000x5000,4096x16x4096
for i in 1 2; do
    for lib in main new; do
        step ab-$lib-$i env MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels best,skinny,cublas --rounds 2 \
            --json $OUT/ab-$lib-$i.json > $OUT/ab-$lib-$i.txt 2>&1
    done
done
NARROW=12x3000x3000,19x3000x20000,16x2500x8000,24x1500x6000,10x4000x20000,20x3500x1500,13x2000x50000,17x4000x4000
step plans env MATMUL_OPT_LIBRARY=/tmp/lib_probe.so timeout 120 python3 $D/plans.py --shapes $NARROW \
    --json $OUT/plans.json > $OUT/plans.txt 2>&1
step tests timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    tests/test_gpu_kernels.py -k "skinny or grid or held_out" > $OUT/tests.log 2>&1
tail -2 $OUT/tests.log
step sanitize timeout 150 python3 -m tools.sanitize --kernels skinny --jobs 4 > $OUT/sanitize.txt 2>&1
tail -6 $OUT/sanitize.txt
cp results/latest/sanitizer-*-skinny.log $OUT/
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
