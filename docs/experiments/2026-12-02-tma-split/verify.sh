#!/usr/bin/env bash
# Device call 2: the H200 checks of the retuned commit, with the library built off the device from it: the whole
# test suite, memcheck, racecheck and synccheck of tma and best (the sanitizer driver forces every configuration of
# best unsplit and in 3 slices), and the shape grid's report with products no table was tuned to (small sides as
# before, and mid-sized FLOP-bound panels, long K and squares). Logs replace results/latest/'s; the asv run of the
# same commit is call 3 (docs/experiments/2026-12-02-grid-gaps/asv.sh).
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $R/environment-verify.txt
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $R/pytest-h200.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200.log | head; tail -1 $R/pytest-h200.log"
step sanitize bash -c "timeout 250 python3 -m tools.sanitize --kernels tma,best --tools memcheck,racecheck,synccheck > $R/sanitize-summary.log 2>&1; tail -4 $R/sanitize-summary.log"
step report bash -c "timeout 120 python3 -m matmul_opt --sizes 4096 13x9000x5000 9x20000x3000 6000x20x7000 24x7000x9000 30x10000x2000 5x6000x8000 8000x7x6000 4225x193x2000 3073x3073x3073 160x6000x3000 5000x80x6000 700x900x2500 300x700x40000 2500x2500x700 --kernels best cublas --accuracy-k --rest 0.2 --grid --json $R/report-grid-h200.json 2>/dev/null > $R/report-grid-h200.txt; tail -52 $R/report-grid-h200.txt"
tar czf $OUT/results.tgz $R
