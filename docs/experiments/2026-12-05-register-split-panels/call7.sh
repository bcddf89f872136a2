#!/usr/bin/env bash
# Device call 7 of this record: run from the checkout (d9282f6, whose code is the table commit 884adeba's) with
# .gitcarry/s12/lib_new.so.gz (that library, built here), .gitcarry/repo.bundle and .whl carried. The GPU tests of
# the rungs whose launchers the last review moved (wgmma_tf32's widths, the register split) and of the dispatchers;
# then, on an H200 only, asv's grid suite for 884adeba, beside the H200's history (its last results: 5668212), where
# `call7.sh asv` asks for it (the session's device time left room for the tests alone).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
gunzip -c .gitcarry/s12/lib_new.so.gz > matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
step tests timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py \
    tests/test_gpu_register_split.py tests/test_gpu_kernels.py \
    -k "precision or dispatcher or register_split or wgmma_tf32 or best_tf32 or best_fp32_accurate" \
    > $OUT/tests.log 2>&1
tail -3 $OUT/tests.log
if [ "$1" = asv ] && grep -q "H200" $OUT/gpu.txt; then
    M=$(python3 -m benchmarks.machine)
    step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=884adeba16f4434d469851f5c004d8ed851e02c5 \
        --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
    tail -3 $OUT/asv.log
    tar czf $OUT/asv.tgz results/asv/$M
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
