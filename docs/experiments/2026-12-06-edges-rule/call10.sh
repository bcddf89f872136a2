#!/usr/bin/env bash
# Device call 10 of this record: run from main's checkout at 3b1141b with .gitcarry/s19/lib_base.so.gz (e4bea2c's
# library), lib_final.so.gz (3b1141b's: edges beside the bulk without clusters), .gitcarry/repo.bundle and .whl
# carried. The head's GPU tests of skinny, split-K, clusters, cuts and the grid; asv's grid suite for both libraries,
# one after the other on the same machine, and the gate:
#   python3 -m tools.regressions e4bea2c HEAD --results-dir results/asv --exact --threshold 0.03
# then sweep.py with each library, and memcheck and synccheck over best.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
R=docs/experiments/2026-12-06-edges-rule
gunzip -c .gitcarry/s19/lib_final.so.gz > matmul_opt/libmatmul.so
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    tests/test_gpu_shape_grid.py tests/test_cpu_api.py -k "skinny or split or cluster or cut or beside or grid or \
held_out or api" > $OUT/tests.log 2>&1
tail -1 $OUT/tests.log
M=$(python3 -m benchmarks.machine)  # names the machine through the library
for run in base:e4bea2c final:$(git rev-parse HEAD); do
    gunzip -c .gitcarry/s19/lib_${run%%:*}.so.gz > matmul_opt/libmatmul.so
    step asv-${run%%:*} timeout 170 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse ${run#*:}) \
        --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv-${run%%:*}.log 2>&1
done
python3 -m tools.regressions e4bea2c HEAD --results-dir results/asv --exact --threshold 0.03 > $OUT/gate.txt 2>&1
grep -A12 "^WORSE\|^BETTER" $OUT/gate.txt | grep -v cublas | head -30; tail -2 $OUT/gate.txt
for lib in base final; do
    gunzip -c .gitcarry/s19/lib_$lib.so.gz > matmul_opt/libmatmul.so
    step sweep-$lib timeout 45 python3 $R/sweep.py > $OUT/sweep-$lib.txt 2>&1
done
step sanitize timeout 40 python3 -m tools.sanitize --tools memcheck,synccheck --kernels best --jobs 2 \
    > $OUT/sanitize.txt 2>&1
tail -2 $OUT/sanitize.txt
