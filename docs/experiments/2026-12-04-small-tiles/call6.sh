#!/usr/bin/env bash
# Device call 6: asv's grid suite at the landing commit (results/asv): best beside cuBLAS on the 48 grid shapes.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
L=$D/logs; mkdir -p $L
source tools/device_env.sh
M=$(python3 -m benchmarks.machine); H=$(git rev-parse HEAD)
echo "commit $H" > $L/call6-environment.txt
step asv bash -c "timeout 330 python3 -m asv run --python=same --set-commit-hash=$H --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $L/call6-asv-grid.log 2>&1; tail -2 $L/call6-asv-grid.log"
tar czf $OUT/logs.tgz $L results/asv
