#!/usr/bin/env bash
# The H200 checks of this record's last commit in one device call, with the library built off the device from the
# same commit: the whole test suite, memcheck, racecheck and synccheck of shortk, skinny and best, the shape grid's
# report, the offline asv run of HEAD (the grid and Sgemm), and Nsight Compute on the tutorial's rungs. Logs replace
# results/latest/'s; $OUT gets results.tgz and ncu.tgz.
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $R/environment-verify.txt
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $R/pytest-h200.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200.log | head; tail -1 $R/pytest-h200.log"
step sanitize bash -c "timeout 150 python3 -m tools.sanitize --kernels shortk,skinny,best --tools memcheck,racecheck,synccheck > $R/sanitize-summary.log 2>&1; tail -3 $R/sanitize-summary.log"
step report bash -c "timeout 100 python3 -m matmul_opt --sizes 4096 --kernels best cublas --accuracy-k --rest 0.2 --grid --json $R/report-grid-h200.json 2>/dev/null > $R/report-grid-h200.txt; tail -52 $R/report-grid-h200.txt"
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid|bench_kernels.Sgemm' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/results.tgz $R results/asv
step ncu bash -c "OUT=/tmp/ncu timeout 200 bash docs/tutorial/ncu/profile_rungs.sh; tar czf $OUT/ncu.tgz -C /tmp ncu"
