#!/usr/bin/env bash
# Device call 6 of this record: call 5's base run again on the same machine, right after it (call 5's failed at
# setup: the head's package binds mm_best_edges_beside, which 795632b's library lacks), now with 795632b's
# matmul_opt/_library.py. Carried as call 5, plus the head's asv result from call 5 in results/asv; then the gate.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
gunzip -c .gitcarry/s18/lib_base.so.gz > matmul_opt/libmatmul.so
git show 795632b:matmul_opt/_library.py > matmul_opt/_library.py
M=$(python3 -m benchmarks.machine)  # names the machine through the library
step asv-base timeout 220 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse 795632b) \
    --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv-base.log 2>&1
tail -1 $OUT/asv-base.log
git checkout -q matmul_opt/_library.py
python3 -m tools.regressions 795632b HEAD --results-dir results/asv --exact --threshold 0.03 > $OUT/gate.txt 2>&1
tail -15 $OUT/gate.txt
