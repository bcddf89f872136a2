#!/usr/bin/env bash
# Device call 4: best with the ragged-edge rule: its decisions (cut_probe), the shape grid's GPU tests, and the
# report on the grid and on ragged shapes no table was tuned to.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-grid-gaps
source tools/device_env.sh
step cut bash -c "timeout 30 $D/cut_probe > $OUT/cut.txt 2>&1; cat $OUT/cut.txt"
step tests bash -c "timeout 150 python3 -m pytest tests/test_gpu_shape_grid.py -q -rfEs -p no:cacheprovider > $OUT/pytest-grid.log 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest-grid.log | head; tail -1 $OUT/pytest-grid.log"
step report bash -c "timeout 150 python3 -m matmul_opt --sizes 4096 4225x193x2000 2561x1025x3001 641x1537x2049 7169x257x1500 1537x1537x777 5003x701x1199 3073x3073x3073 2305x4609x1000 --kernels best cublas --accuracy-k --rest 0.2 --grid --json $OUT/report-grid.json 2>/dev/null > $OUT/report-grid.txt; cat $OUT/report-grid.txt"
