#!/usr/bin/env bash
# Device call 6: the checks of the commit with best's new table (longk for a long K over C within one of its tiles
# past a smaller side of 8): the shape grid's report with held-out long-K and short-K products, the asv run of the
# commit (kernel times of the grid and Sgemm), and the GPU tests of best's choices and of longk. Logs replace
# results/latest/'s.
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $R/environment-verify.txt
step report bash -c "timeout 60 python3 -m matmul_opt --sizes 4096 5x7x200000 20x30x100000 24x24x131072 12x28x90000 30x17x250000 9x31x65536 3x29x250000 64x64x131072 1000x1500x64 3000x3000x40 --kernels best cublas --rest 0.2 --grid --json $R/report-grid-h200.json 2>/dev/null > $R/report-grid-h200.txt; tail -52 $R/report-grid-h200.txt"
tar czf $OUT/results.tgz $R
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 300 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/results.tgz $R results/asv
step pytest bash -c "timeout 150 python3 -m pytest tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py tests/test_gpu_long_k_kernel.py -q -rfEs -p no:cacheprovider > $R/pytest-h200-choices.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200-choices.log | head; tail -1 $R/pytest-h200-choices.log"
tar czf $OUT/results.tgz $R results/asv
