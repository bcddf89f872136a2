#!/usr/bin/env bash
# Device call 5 of this record: run from main's checkout at the record's commit with .gitcarry/s18/lib_base.so.gz
# (795632b's library), lib_head.so.gz (the head's: the hook and the tuner's switch helper), .gitcarry/repo.bundle
# and .whl carried. The C API's tests and the head's GPU tests of cuts and of the hook; asv's grid suite for both
# libraries, one after the other on the same machine, for the gate:
#   python3 -m tools.regressions 795632b HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
gunzip -c .gitcarry/s18/lib_head.so.gz > matmul_opt/libmatmul.so
step api-tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_cpu_api.py > $OUT/tests.log 2>&1
step cut-tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    -k "beside or cut" \
    >> $OUT/tests.log 2>&1
grep -E "passed|failed" $OUT/tests.log
M=$(python3 -m benchmarks.machine)  # names the machine through the library
for run in base:795632b head:$(git rev-parse HEAD); do
    gunzip -c .gitcarry/s18/lib_${run%%:*}.so.gz > matmul_opt/libmatmul.so
    step asv-${run%%:*} timeout 220 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse ${run#*:}) \
        --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv-${run%%:*}.log 2>&1
    tail -1 $OUT/asv-${run%%:*}.log
done
python3 -m tools.regressions 795632b HEAD --results-dir results/asv --exact --threshold 0.03 > $OUT/gate.txt 2>&1
tail -15 $OUT/gate.txt
