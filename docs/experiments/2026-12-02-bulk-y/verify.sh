#!/usr/bin/env bash
# Device call 4: the checks of the commit with the bulk mainloop's 20 rows and Y copied along its rows: the shape
# grid's report with the held-out products of earlier records, the asv run of the commit (kernel times of the grid
# and Sgemm), and the whole test suite. Logs replace results/latest/'s; $OUT gets them as one archive.
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $R/environment-verify.txt
step report bash -c "timeout 60 python3 -m matmul_opt --sizes 4096 13x9000x5000 9x20000x3000 24x7000x9000 5x6000x8000 6000x20x7000 20x6000x7000 12000x3x5000 --kernels best cublas --rest 0.2 --grid --json $R/report-grid-h200.json 2>/dev/null > $R/report-grid-h200.txt; tail -52 $R/report-grid-h200.txt"
tar czf $OUT/results.tgz $R
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 300 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/results.tgz $R results/asv
step pytest bash -c "timeout 170 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $R/pytest-h200.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200.log | head; tail -1 $R/pytest-h200.log"
tar czf $OUT/results.tgz $R results/asv
