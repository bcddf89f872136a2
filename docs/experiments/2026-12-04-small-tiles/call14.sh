#!/usr/bin/env bash
# Device call 14: asv's grid suite and host patterns at the landing commit (results/asv). The Sgemm suite is not
# run: the retuned tables choose as before on its shapes (cubes from 512 and two ragged shapes near 1024^3 and
# 8192x2048x4096), and no kernel's machine code changed.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
L=$D/logs; mkdir -p $L
source tools/device_env.sh
M=$(python3 -m benchmarks.machine); H=$(git rev-parse HEAD)
echo "commit $H" > $L/call14-environment.txt
step asv bash -c "timeout 330 python3 -m asv run --python=same --set-commit-hash=$H --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $L/call14-asv-grid.log 2>&1; tail -2 $L/call14-asv-grid.log"
tar czf $OUT/logs.tgz $L results/asv
step asv-host bash -c "timeout 150 python3 -m asv run --python=same --set-commit-hash=$H --machine $M --bench 'bench_host_patterns' > $L/call14-asv-host.log 2>&1; tail -12 $L/call14-asv-host.log"
tar czf $OUT/logs.tgz $L results/asv
