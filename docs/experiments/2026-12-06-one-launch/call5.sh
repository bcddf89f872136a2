#!/usr/bin/env bash
# Device call 5 of this record: run from the checkout with .gitcarry/s14/lib_final.so.gz (the branch's head: sums in
# the launch for longk alone, skinny as on main), .gitcarry/repo.bundle (the head and main) and .whl carried. The
# head's GPU tests of the cooperative sum and longk; asv's grid suite at the head, for the gate against 9bb7818f
# (H100) or 56682120 (H200):
#   python3 -m tools.regressions 9bb7818f HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
gunzip -c .gitcarry/s14/lib_final.so.gz > matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
step tests timeout 40 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    -k "cooperative or longk" > $OUT/tests.log 2>&1
tail -2 $OUT/tests.log
M=$(python3 -m benchmarks.machine)
step asv timeout 250 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
