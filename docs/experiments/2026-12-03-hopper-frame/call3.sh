#!/usr/bin/env bash
# Device call 3: the whole test suite, then the asv run of this commit (the grid's and Sgemm's kernel times).
export OUT=${OUT:-/tmp/out}
R=results/latest
D=docs/experiments/2026-12-03-hopper-frame
mkdir -p $D/logs
source tools/device_env.sh
[ -f matmul_opt/libmatmul.so ] || step link link_library
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call3-environment.txt
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $D/logs/call3-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call3-pytest.log | head -20; tail -1 $D/logs/call3-pytest.log"
tar czf $OUT/logs.tgz $D/logs
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 340 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/logs.tgz $D/logs $R/asv-run.log results/asv
