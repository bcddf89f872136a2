#!/usr/bin/env bash
# The H200 checks of the shape-grid work in one device call: the whole test suite, the four sanitizers, and the
# report with the shape grid (its logs replace docs/results/'s).
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD OUT=${OUT:-/tmp/out}
R=docs/results
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD 2>/dev/null)"; date -u; } > $R/environment-verify.txt
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $R/pytest-h200.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200.log | head; tail -1 $R/pytest-h200.log"
step sanitize bash -c "timeout 240 python3 scripts/sanitize.py > $R/sanitize-summary.log 2>&1; tail -3 $R/sanitize-summary.log"
step report bash -c "timeout 200 python3 -m matmul_opt --sizes 1024 4096 8192 --rest 0.2 --grid --json $R/report-h200.json 2>/dev/null > $R/report-h200.txt; tail -58 $R/report-h200.txt"
tar czf $OUT/results.tgz $R
