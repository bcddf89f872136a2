#!/usr/bin/env bash
# The H200 checks of this record's commit in one device call, with the library built off the device from the same
# commit: the whole test suite, memcheck, racecheck and synccheck of best (its ragged-edge rule: the sanitizer
# driver's CUT_SHAPES), the shape grid's report with ragged shapes no table was tuned to, and the offline asv run of
# HEAD (the grid and Sgemm). Logs replace results/latest/'s; $OUT gets results.tgz.
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $R/environment-verify.txt
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $R/pytest-h200.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200.log | head; tail -1 $R/pytest-h200.log"
step sanitize bash -c "timeout 150 python3 -m tools.sanitize --kernels best --tools memcheck,racecheck,synccheck > $R/sanitize-summary.log 2>&1; tail -3 $R/sanitize-summary.log"
step report bash -c "timeout 100 python3 -m matmul_opt --sizes 4096 4225x193x2000 2561x1025x3001 641x1537x2049 7169x257x1500 1537x1537x777 3073x3073x3073 --kernels best cublas --accuracy-k --rest 0.2 --grid --json $R/report-grid-h200.json 2>/dev/null > $R/report-grid-h200.txt; tail -52 $R/report-grid-h200.txt"
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid|bench_kernels.Sgemm' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/results.tgz $R results/asv
