#!/usr/bin/env bash
# Device call 4: the asv run of this commit.
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh >/dev/null 2>&1
[ -f matmul_opt/libmatmul.so ] || link_library
M=$(python3 -m benchmarks.machine)
timeout 540 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $R/asv-run.log 2>&1
echo "asv rc=$?"
tail -3 $R/asv-run.log
git rev-parse HEAD
tar czf $OUT/logs.tgz $R/asv-run.log results/asv
