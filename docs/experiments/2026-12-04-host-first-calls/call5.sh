#!/usr/bin/env bash
# Device call 5: the four sanitizers (tools.sanitize) over naive, tma (tensor maps through core/driver_entry.h) and
# skinny, with every module loaded at the first launch.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-host-first-calls
L=$D/logs; mkdir -p $L
source tools/device_env.sh
echo "commit $(git rev-parse HEAD)" > $L/call5-environment.txt
step sanitize bash -c "timeout 200 python3 -m tools.sanitize --kernels naive,tma,skinny --jobs 12 --timeout 170 > $L/call5-sanitize.txt 2>&1; tail -20 $L/call5-sanitize.txt"
cp results/latest/sanitizer-*.log $L/ 2>/dev/null
tar czf $OUT/logs.tgz $L
