#!/usr/bin/env bash
# Device call 5: the checks of 79d2ffb's table (panels chosen over four shapes each, reverted after this call; the
# cp.async 128x256 tile's step-down to stream-K past a short K), with the library built off the device from the
# commit: the shape grid's report with products no table was tuned to, the asv run of the commit (kernel times of
# the grid and Sgemm), the GPU tests of best's choices, and racecheck and synccheck of best (every configuration
# forced, unsplit and in 3 slices; memcheck of tma and best ran clean in call 2 on the same kernels). Logs replace
# results/latest/'s.
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $R/environment-verify.txt
step report bash -c "timeout 45 python3 -m matmul_opt --sizes 4096 13x9000x5000 9x20000x3000 6000x20x7000 24x7000x9000 30x10000x2000 5x6000x8000 8000x7x6000 4225x193x2000 3073x3073x3073 160x6000x3000 5000x80x6000 700x900x2500 300x700x40000 2500x2500x700 --kernels best cublas --rest 0.2 --grid --json $R/report-grid-h200.json 2>/dev/null > $R/report-grid-h200.txt; tail -52 $R/report-grid-h200.txt"
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 240 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/results.tgz $R results/asv
step pytest bash -c "timeout 90 python3 -m pytest tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py -q -rfEs -p no:cacheprovider > $R/pytest-h200-choices.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200-choices.log | head; tail -1 $R/pytest-h200-choices.log"
step sanitize bash -c "timeout 170 python3 -m tools.sanitize --kernels best --tools racecheck,synccheck > $R/sanitize-summary-best.log 2>&1; tail -4 $R/sanitize-summary-best.log"
tar czf $OUT/results.tgz $R results/asv
