#!/usr/bin/env bash
# Device call 10 of this record: run from the checkout with .gitcarry/s15/lib_base.so.gz (25634d5's library, built
# here from its best.cu) and lib_final.so.gz (the head's), .gitcarry/repo.bundle and .whl carried. asv's grid suite
# for both, one after the other on the same machine, for the gate:
#   python3 -m tools.regressions 25634d5 HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
gunzip -c .gitcarry/s15/lib_base.so.gz > matmul_opt/libmatmul.so
M=$(python3 -m benchmarks.machine)  # names the machine through the library
for run in base:25634d5 final:$(git rev-parse HEAD); do
    gunzip -c .gitcarry/s15/lib_${run%%:*}.so.gz > matmul_opt/libmatmul.so
    step asv-${run%%:*} timeout 220 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse ${run#*:}) \
        --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv-${run%%:*}.log 2>&1
done
