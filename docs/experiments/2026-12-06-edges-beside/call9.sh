#!/usr/bin/env bash
# Device call 9 of this record: run from the checkout with .gitcarry/s15/lib_final.so.gz (the head: edges beside the
# bulk, cut margin 0.75, built here), .gitcarry/repo.bundle and .whl carried. The head's GPU tests of best (the shape
# grid and best's kernel tests); memcheck and synccheck over best; asv's grid suite at the head, for the gate against
# 25634d5 (call 1) and ee02d19 (call 3):
#   python3 -m tools.regressions 25634d5 HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
gunzip -c .gitcarry/s15/lib_final.so.gz > matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
step tests timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    tests/test_gpu_kernels.py -k "best or grid or held_out or beside or cut" > $OUT/tests.log 2>&1
tail -3 $OUT/tests.log
step sanitize timeout 100 python3 -m tools.sanitize --kernels best --tools memcheck,synccheck --jobs 2 \
    > $OUT/sanitize.txt 2>&1
tail -3 $OUT/sanitize.txt
M=$(python3 -m benchmarks.machine)
step asv timeout 220 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -2 $OUT/asv.log
