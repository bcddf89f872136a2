#!/usr/bin/env bash
# Device call 4: the revised rule (bulk only where one K slice covers most SMs or Y has more than 8 rows; slices
# for the blocks an SM holds) and Y's copy without bank conflicts: bulk_probe again, the shape grid's GPU tests, and
# the report on the grid and on small-side products no table was tuned to.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-bulk-skinny
source tools/device_env.sh
step bulk bash -c "timeout 120 $D/bulk_probe > $OUT/call4-bulk-probe.txt 2>&1; tail -4 $OUT/call4-bulk-probe.txt"
step tests bash -c "timeout 200 python3 -m pytest tests/test_gpu_shape_grid.py -q -rfEs -p no:cacheprovider > $OUT/pytest-grid.log 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest-grid.log | head; tail -1 $OUT/pytest-grid.log"
step report bash -c "timeout 150 python3 -m matmul_opt --sizes 13x9000x5000 9x20000x3000 6000x20x7000 24x7000x9000 30x10000x2000 5x6000x8000 8000x7x6000 --kernels best cublas --rest 0.2 --grid --json $OUT/report-grid.json 2>/dev/null > $OUT/report-grid.txt; cat $OUT/report-grid.txt"
