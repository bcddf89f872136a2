#!/usr/bin/env bash
# Device call 4 of this record, from the branch's checkout at 3c06cbe with .gitcarry/s23/lib_main.so.gz (main's
# library at a86460e), lib_branch.so.gz (3c06cbe's), .gitcarry/repo.bundle and .whl carried: the GPU tests of the
# longk kernels and the dispatchers with the branch's library (best_tf32's bound moved to 19200 outputs after call
# 3); asv's grid suite for main and the branch, one after the other on the same machine, and the gate:
#   python3 -m tools.regressions a86460e 3c06cbe --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
gunzip -c .gitcarry/s23/lib_branch.so.gz > matmul_opt/libmatmul.so
step tests timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_long_k_kernel.py \
    tests/test_gpu_precision.py tests/test_gpu_kernels.py -k "longk or precision or dispatcher" > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
M=$(python3 -m benchmarks.machine)  # names the machine through the library
for run in base:a86460e final:3c06cbe; do
    lib=${run%%:*}; [ $lib = base ] && gz=lib_main || gz=lib_branch
    gunzip -c .gitcarry/s23/$gz.so.gz > matmul_opt/libmatmul.so
    step asv-$lib timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse ${run#*:}) \
        --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv-$lib.log 2>&1
done
python3 -m tools.regressions a86460e 3c06cbe --results-dir results/asv --exact --threshold 0.03 > $OUT/gate.txt 2>&1
grep -A30 "^WORSE\|^BETTER" $OUT/gate.txt | head -60; tail -2 $OUT/gate.txt
