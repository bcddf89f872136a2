#!/usr/bin/env bash
# Device call 2 of this record: run from the checkout with .gitcarry/s14 (lib_head.so.gz: main's head; lib_new.so.gz:
# this change, split-K's slices added up in the cooperative launch that writes them, built here),
# .gitcarry/repo.bundle and .whl carried. Both libraries in alternating processes on small long-K products
# (fixed_cost.py); the kernels each call launches under ncu (the change); the change's GPU tests of split-K, skinny,
# longk and the shape grid; the sanitizers over skinny and longk.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh  # restores the history from the bundle
for lib in head new; do gunzip -c .gitcarry/s14/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_new.so matmul_opt/libmatmul.so
HERE=docs/experiments/2026-12-06-one-launch
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
SHAPES=1x1x1000000,8x8x16384,1x1x131072,16x16x500000,32x32x300000,5x7x200000,3x29x250000,20x30x100000
SHAPES+=,1x32x400000,32x1x400000,64x16x300000,1x1500x9000
for i in 1 2; do
    for lib in head new; do
        step fixed-$lib-$i env MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 $HERE/fixed_cost.py \
            --shapes $SHAPES --kernels best,cublas > $OUT/fixed-$lib-$i.txt 2>&1
    done
done
paste $OUT/fixed-head-1.txt $OUT/fixed-new-1.txt $OUT/fixed-head-2.txt $OUT/fixed-new-2.txt | column -t
step ncu timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    python3 $HERE/fixed_cost.py --ncu --shapes 1x1x1000000,32x32x300000,16x16x500000 --kernels best \
    > $OUT/ncu-new.csv 2> $OUT/ncu-new.err
grep -v -e distribution -e elementwise -e '"==PROF==' $OUT/ncu-new.csv | cut -c1-220 | tail -24
step tests timeout 170 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    tests/test_gpu_shape_grid.py -k "cooperative or cluster or longk or skinny or grid or held_out" \
    > $OUT/tests.log 2>&1
tail -3 $OUT/tests.log
step sanitize timeout 200 python3 -m tools.sanitize --kernels skinny,longk --jobs 4 > $OUT/sanitize.txt 2>&1
tail -9 $OUT/sanitize.txt
cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
