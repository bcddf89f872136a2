#!/usr/bin/env bash
# Device call 5 of the integration record, the landing: run from main's checkout with .gitcarry/repo.bundle (made
# after the table's commit, holding panel-fold), .gitcarry/s9/lib_pf.so.gz (panel-fold's library at that head,
# built here) and .whl (asv's wheels) carried. In two parts, each under a call's ten minutes: `call5.sh grid`
# runs the GPU tests of the dispatch that call 4's table changes (the precision dispatchers, the register split,
# pairwise on panels), then asv of the head's grid suite; `call5.sh kernels` asv of its kernels suite and host
# patterns (the host path's worst call). The landing commits both results (asv run saves each part's beside any
# results already in results/asv for the commit). The regression gate runs here afterwards, against main's last
# results:
#   python3 -m tools.regressions BASE HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
source tools/device_env.sh  # restores the history from the bundle
git checkout -q -f panel-fold
gunzip -c .gitcarry/s9/lib_pf.so.gz > matmul_opt/libmatmul.so
if [ "$1" = grid ]; then
    bench='bench_grid.GridSgemm.track_kernel_ms'
    step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py \
        tests/test_gpu_register_split.py tests/test_gpu_pairwise.py > $OUT/call5-tests.log 2>&1
    tail -1 $OUT/call5-tests.log
else
    bench='bench_kernels.Sgemm.track_kernel_ms|bench_host_patterns.HostPatterns.track_worst_call_ms'
fi
M=$(python3 -m benchmarks.machine)
step asv timeout 450 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
    --bench "$bench" > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
tar czf $OUT/asv.tgz results/asv
