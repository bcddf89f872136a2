#!/usr/bin/env bash
# The offline asv run of the commit that verify.sh checked (the grid and Sgemm; BENCH and ASV_TIMEOUT narrow it),
# whose asv step failed for want of a PyYAML wheel for the device's Python. $OUT gets results.tgz.
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
COMMIT=${1:-$(git rev-parse HEAD)}
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout ${ASV_TIMEOUT:-300} python3 -m asv run --python=same --set-commit-hash=$COMMIT --machine $M --bench '${BENCH:-bench_grid|bench_kernels.Sgemm}' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/results.tgz $R/asv-run.log results/asv
