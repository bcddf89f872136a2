#!/usr/bin/env bash
# Device call 4: asv's Sgemm and grid suites at this commit, one invocation each (call 3's single run of both was cut
# off by its timeout before asv wrote its results). The Sgemm run was cut off at 110 s as well; the grid's results
# are the ones committed.
export OUT=${OUT:-/tmp/out}
source tools/device_env.sh
M=$(python3 -m benchmarks.machine); L=docs/experiments/2026-12-04-bulk-mainloop/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz $L results/asv; }
H=$(git rev-parse HEAD)
step sgemm bash -c "timeout 110 python3 -m asv run --python=same --set-commit-hash=$H --machine $M --bench 'bench_kernels.Sgemm.track_kernel_ms' > $L/call4-asv-sgemm.log 2>&1; tail -2 $L/call4-asv-sgemm.log"
save
step grid bash -c "timeout 400 python3 -m asv run --python=same --set-commit-hash=$H --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms' > $L/call4-asv-grid.log 2>&1; tail -2 $L/call4-asv-grid.log"
save
