#!/usr/bin/env bash
# Device call 5: call 4 ran the test suite beside eight sanitizer runs at once, and both ran out of time (the suite
# at 13% with one failure among the naive kernel's tests, racecheck nowhere near done; memcheck finished clean over
# all eight kernels). Now one after the other: the whole test suite alone, then racecheck, initcheck and synccheck
# over the kernels whose machine code changed (skinny, pipelined, pairwise, warptile; the bulk-copy configurations
# run the same cp.async tiles only as their fallbacks).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
L=$D/logs; mkdir -p $L/sanitizer
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call5-environment.txt
step pytest bash -c "timeout 260 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $L/call5-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call5-pytest.log | head -20; tail -1 $L/call5-pytest.log"
tar czf $OUT/logs.tgz $L
step sanitize bash -c "timeout 200 python3 -m tools.sanitize --tools racecheck,initcheck,synccheck --kernels skinny,pipelined,pairwise,warptile --jobs 12 --timeout 180 > $L/call5-sanitize.log 2>&1; tail -14 $L/call5-sanitize.log"
cp results/latest/sanitizer-*-*.log $L/sanitizer/ 2>/dev/null
tar czf $OUT/logs.tgz $L
