#!/usr/bin/env bash
# Device call 1 of this record: run from the checkout with .gitcarry/s14 carried (lib_main.so.gz: main's library at
# ec175ac; lib_probe.so.gz: the same with skinny's bulk mainloop taking groups of Y's rows and the plan read from
# MM_SKINNY_PROBE, built with -DMM_SKINNY_PLAN_PROBE). The GPU tests that main's last commits added or changed
# (never run on a GPU), initcheck over skinny, and the bulk mainloop's forced plans on small-side shapes.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
D=docs/experiments/2026-12-06-bulk-groups
gunzip -c .gitcarry/s14/lib_main.so.gz > matmul_opt/libmatmul.so
gunzip -c .gitcarry/s14/lib_probe.so.gz > /tmp/lib_probe.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py \
    "tests/test_gpu_kernels.py" -k "precision or cluster or skinny" > $OUT/tests.log 2>&1
tail -2 $OUT/tests.log
ALONG_K=9000x24x2000,9000x12x2000,4096x16x4096,7000x5x3000,10000x12x6000,5000x20x3000
ALONG_L=17x8000x8000,13x5120x13824,11x14336x2500,20x10000x3000,6x6000x5000,19x3000x20000,8x4096x4096,24x5000x2000
step plans env MATMUL_OPT_LIBRARY=/tmp/lib_probe.so timeout 200 python3 $D/plans.py --shapes $ALONG_K,$ALONG_L \
    --json $OUT/plans.json > $OUT/plans.txt 2>&1
tail -4 $OUT/plans.txt
step initcheck timeout 150 python3 -m tools.sanitize --kernels skinny --tools initcheck > $OUT/sanitize.txt 2>&1
tail -3 $OUT/sanitize.txt
cp results/latest/sanitizer-initcheck.log $OUT/
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
