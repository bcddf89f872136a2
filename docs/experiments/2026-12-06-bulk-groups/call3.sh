#!/usr/bin/env bash
# Device call 3 of this record: run from the checkout with .gitcarry/s14 (lib_main.so.gz: main at ec175ac;
# lib_new2.so.gz: this branch's head, built here), .gitcarry/repo.bundle (holding that head and main) and .whl carried.
# main and the head in alternating processes on four small-side shapes of call 2, the narrow large sides of call 2's
# forced plans and a K sweep across the groups' least K; the head's GPU tests of skinny, best and the shape grid;
# asv's grid suite at the head. (The sanitizers ran over the groups in call 2; the narrow sides' bulk plan runs the
# same kernels and cluster path.)
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
for lib in main new2; do gunzip -c .gitcarry/s14/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_new2.so matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
SHAPES=9000x24x2000,9000x12x2000,8188x11x700,17x8000x8000
SHAPES+=,12x3000x3000,19x3000x20000,16x2500x8000,10x4000x20000,13x2000x50000,17x4000x4000,24x1500x6000,20x3500x1500
SHAPES+=,9000x12x1000,9000x12x1300,7000x10x1100,7000x10x1700
for i in 1 2; do
    for lib in main new2; do
        step ab-$lib-$i env MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels best,skinny,cublas --rounds 2 \
            --json $OUT/ab-$lib-$i.json > $OUT/ab-$lib-$i.txt 2>&1
    done
done
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    tests/test_gpu_kernels.py tests/test_gpu_precision.py -k "skinny or grid or held_out or best or precision" \
    > $OUT/tests.log 2>&1
tail -2 $OUT/tests.log
M=$(python3 -m benchmarks.machine)
step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
