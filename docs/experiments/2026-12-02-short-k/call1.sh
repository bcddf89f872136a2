#!/usr/bin/env bash
# Device call 1: the checks of main as it stood at this record's start (whole suite, sanitizers of skinny and best:
# commits since the last GPU run moved Python modules and cp.async configurations), the short-K probe, Nsight
# Compute on the tutorial's rungs, and asv's host-path patterns.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-short-k
source tools/device_env.sh
step probe bash -c "timeout 120 $D/probe > $OUT/probe.txt 2>&1; cat $OUT/probe.txt"
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $OUT/pytest.txt 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest.txt | head; tail -1 $OUT/pytest.txt"
step sanitize bash -c "timeout 100 python3 -m tools.sanitize --kernels skinny,best --tools memcheck,racecheck,synccheck > $OUT/sanitize.txt 2>&1; tail -3 $OUT/sanitize.txt"
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 150 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_host_patterns' > $OUT/asv.txt 2>&1; tail -25 $OUT/asv.txt"
step ncu bash -c "OUT=/tmp/ncu timeout 240 bash docs/tutorial/ncu/profile_rungs.sh; tar czf $OUT/ncu.tgz -C /tmp ncu"
tar czf $OUT/results.tgz results/asv
