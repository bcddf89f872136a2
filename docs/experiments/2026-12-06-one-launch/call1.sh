#!/usr/bin/env bash
# Device call 1 of this record: run from main's checkout with .gitcarry/s14/lib_head.so.gz (main's head, built here),
# .gitcarry/repo.bundle and .whl carried. Where the time of small long-K products goes (fixed_cost.py: the benchmark,
# the host's enqueue time, and under ncu the kernels each call launches); the bulk-groups record's call 4 (the
# sanitizers over skinny at main's head and the groups GPU test's shapes).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh  # restores the history from the bundle
gunzip -c .gitcarry/s14/lib_head.so.gz > matmul_opt/libmatmul.so
HERE=docs/experiments/2026-12-06-one-launch
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
SHAPES=1x1x1000000,8x8x16384,1x1x131072,16x16x500000,32x32x300000,1x1500x9000,5x7x200000,64x64x1048576,256x256x256
step fixed timeout 60 python3 $HERE/fixed_cost.py --shapes $SHAPES --kernels best,cublas,skinny,longk \
    > $OUT/fixed.txt 2>&1
cat $OUT/fixed.txt
step ncu timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    python3 $HERE/fixed_cost.py --ncu --shapes 1x1x1000000,8x8x16384,16x16x500000,1x1500x9000 --kernels best,cublas \
    > $OUT/ncu.csv 2> $OUT/ncu.err
grep -v -e distribution -e elementwise $OUT/ncu.csv | tail -70
step tests timeout 100 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py -k "groups or narrow" \
    > $OUT/tests.log 2>&1
tail -2 $OUT/tests.log
step sanitize timeout 150 python3 -m tools.sanitize --kernels skinny --jobs 4 > $OUT/sanitize.txt 2>&1
tail -5 $OUT/sanitize.txt
cp results/latest/sanitizer-*-skinny.log $OUT/ 2>/dev/null
