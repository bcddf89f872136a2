#!/usr/bin/env bash
# Device call 1 (the session's last): the tuner with the panel sweep at K = 1024 and 4096 writes best_table.h; the
# library is relinked with best rebuilt (the other objects come built from this machine's nvcc 13.0, in build/);
# the new table is committed here on a branch `tuned` and sent back as a bundle; then the shape grid's report, the
# GPU tests of the grid and of best's choices, and the asv run of that commit (kernel times of the grid and Sgemm).
export OUT=${OUT:-/tmp/out}
R=results/latest
source tools/device_env.sh
step link link_library
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $R/environment-verify.txt
step tune bash -c "timeout 120 python3 -m matmul_opt.tune --json $R/tune-h200.json --write > $R/tune-h200.txt 2>/dev/null; grep -A8 'kPanelRows\[\]' cuda/kernels/best_table.h"
step rebuild compile_objects cuda/kernels/best.cu
step relink link_library
git checkout -q -B tuned
git -c user.name=matmul-opt -c user.email=matmul-opt@localhost commit -q -m "best's panel rows from the tuner's run on the H200 with the panel sweep at K = 1024 and 4096 (results/latest/tune-h200.json)" cuda/kernels/best_table.h $R/tune-h200.json $R/tune-h200.txt
git bundle create $OUT/tuned.bundle tuned ^HEAD~1 2>&1 | tail -1
git diff HEAD~1 --stat
step report bash -c "timeout 60 python3 -m matmul_opt --sizes 4096 13x9000x5000 9x20000x3000 24x7000x9000 5x6000x8000 6000x20x7000 20x6000x7000 12000x3x5000 --kernels best cublas --rest 0.2 --grid --json $R/report-grid-h200.json 2>/dev/null > $R/report-grid-h200.txt; grep -E 'panel|ragged|geometric' $R/report-grid-h200.txt"
tar czf $OUT/results.tgz $R
step pytest bash -c "timeout 90 python3 -m pytest tests/test_gpu_shape_grid.py tests/test_tune.py -q -rfEs -p no:cacheprovider > $R/pytest-h200-choices.log 2>&1; grep -E '^(FAILED|ERROR)' $R/pytest-h200-choices.log | head; tail -1 $R/pytest-h200-choices.log"
tar czf $OUT/results.tgz $R
M=$(python3 -m benchmarks.machine)
step asv bash -c "timeout 280 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M --bench 'bench_grid.GridSgemm.track_kernel_ms|bench_kernels.Sgemm.track_kernel_ms' > $R/asv-run.log 2>&1; tail -3 $R/asv-run.log"
tar czf $OUT/results.tgz $R results/asv
