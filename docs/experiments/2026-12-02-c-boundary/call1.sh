#!/usr/bin/env bash
# Device call 1: the whole suite on the refactored C boundary, then the C costs of a 64^3 call, three processes
# (latency_probe, built off the device and not committed: nvcc -O2 -std=c++17 -Icuda
# docs/experiments/2026-12-01-host-streaming/latency_probe.cu -Lmatmul_opt -lmatmul
# -Xlinker -rpath,'$ORIGIN/../../../matmul_opt' -o docs/experiments/2026-12-02-c-boundary/latency_probe).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-c-boundary
source tools/device_env.sh
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $OUT/pytest-h200.log 2>&1; grep -E '^(FAILED|ERROR)' $OUT/pytest-h200.log | head; tail -1 $OUT/pytest-h200.log"
for round in 1 2 3; do
    echo "== round $round"; timeout 30 $D/latency_probe
done | tee $OUT/latency.txt
