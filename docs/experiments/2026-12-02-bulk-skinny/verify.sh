#!/usr/bin/env bash
# The H200 checks of this record's commit in one device call, with the library built off the device from the same
# commit: the whole test suite, memcheck, racecheck and synccheck of skinny and best (the sanitizer driver's
# BULK_SHAPES run the bulk mainloop), the shape grid's report with small-side products no table was tuned to, and
# the offline asv run of HEAD (kernel times of the grid and Sgemm). Logs replace results/latest/'s.
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $R/environment-verify.txt
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $R/pytest-h200.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200.log | head; tail -1 $R/pytest-h200.log"
step sanitize bash -c "timeout 200 python3 -m tools.sanitize --kernels skinny,best --tools memcheck,racecheck,synccheck > $R/sanitize-summary.log 2>&1; tail -4 $R/sanitize-summary.log"
step report bash -c "timeout 100 python3 -m matmul_opt --sizes 4096 13x9000x5000 9x20000x3000 6000x20x7000 24x7000x9000 30x10000x2000 5x6000x8000 8000x7x6000 4225x193x2000 3073x3073x3073 --kernels best cublas --accuracy-k --rest 0.2 --grid --json $R/report-grid-h200.json 2>/dev/null > $R/report-grid-h200.txt; tail -52 $R/report-grid-h200.txt"
step asv bash -c "BENCH='bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' ASV_TIMEOUT=250 bash docs/experiments/2026-12-02-grid-gaps/asv.sh $(git rev-parse HEAD)"
tar czf $OUT/results.tgz $R results/asv
