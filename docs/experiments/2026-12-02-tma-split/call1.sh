#!/usr/bin/env bash
# Device call 1: the tma configurations split K. Their GPU tests (every configuration of best forced, unsplit and in
# 3 slices, in every op combination), the tuner with the squares at the split-K rule's slices (its timings become
# best_table.h), the shape grid's report with the table as it was (the split alone), and the C boundary's A/B
# (docs/experiments/2026-12-02-c-boundary/ab_rounds.sh, its libraries in .ab/).
export OUT=${OUT:-/tmp/out}
source tools/device_env.sh
step pytest bash -c "timeout 150 python3 -m pytest tests/test_gpu_kernels.py tests/test_gpu_native_ops.py -q -p no:cacheprovider -rfE > $OUT/pytest.txt 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest.txt | head -20; tail -1 $OUT/pytest.txt"
step tune bash -c "timeout 220 python3 -m matmul_opt.tune --json $OUT/tune.json > $OUT/tune.txt 2> $OUT/tune.err; tail -2 $OUT/tune.err"
step report bash -c "timeout 60 python3 -m matmul_opt --sizes 4096 --kernels best cublas --rest 0.2 --grid --json $OUT/report-grid.json 2>/dev/null > $OUT/report-grid.txt; tail -52 $OUT/report-grid.txt"
step ab bash -c "timeout 150 bash docs/experiments/2026-12-02-c-boundary/ab_rounds.sh > $OUT/ab.txt 2>&1; cat $OUT/ab.txt"
