#!/usr/bin/env bash
# Device call 2, on the tuned tables that call 1 made: the dispatchers' GPU tests (checked on GPU arrays now), the
# four sanitizers over the two dispatchers, then the asv run of the commit (kernel times of the grid, now with the
# dispatchers and cuBLAS TF32, and of Sgemm).
export OUT=${OUT:-/tmp/out}
R=results/latest
D=docs/experiments/2026-12-02-precision-dispatch
source tools/device_env.sh
step link link_library
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call2-environment.txt
step pytest bash -c "timeout 60 python3 -m pytest tests/test_gpu_precision.py -q -rfEs -p no:cacheprovider > $D/logs/call2-pytest.log 2>&1; tail -1 $D/logs/call2-pytest.log"
step sanitize bash -c "timeout 200 python3 -m tools.sanitize --kernels best_tf32,best_fp32_accurate > $D/logs/call2-sanitize.log 2>&1; tail -8 $D/logs/call2-sanitize.log"
tar czf $OUT/logs.tgz $D/logs
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 330 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/logs.tgz $D/logs $R/asv-run.log results/asv
