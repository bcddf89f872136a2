#!/usr/bin/env bash
# Device call 1 for the pairwise rung: its GPU tests; the sanitizers over it (all four) and racecheck over skinny,
# longk and splitk (which did not finish in 180 s before), in the background while the tests and the accuracy
# sweep run; the errors of pairwise, best and the fp32-accurate kernels against cuBLAS fp32's on the grid, the
# held-out shapes and 256 x K x 256 up to K = 2^20 (accuracy.py); then, alone on the GPU, the grid's timings of
# pairwise, best and best_fp32_accurate beside cuBLAS.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-pairwise
mkdir -p $D/logs
source tools/device_env.sh
step link link_library
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,power.limit --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call1-environment.txt
sanitize() {
    timeout 380 python3 -m tools.sanitize --kernels pairwise --jobs 4 --timeout 360 > $D/logs/call1-sanitize-pairwise.log 2>&1
    echo "sanitize pairwise rc=$?" >> $D/logs/call1-sanitize-pairwise.log
    timeout 380 python3 -m tools.sanitize --tools racecheck --kernels skinny,longk,splitk --jobs 3 --timeout 360 > $D/logs/call1-racecheck.log 2>&1
    echo "racecheck rc=$?" >> $D/logs/call1-racecheck.log
}
( sanitize ) &
SAN=$!
step tests bash -c "timeout 200 python3 -m pytest -q -x tests/test_gpu_pairwise.py tests/test_gpu_kernels.py -k pairwise > $D/logs/call1-tests.log 2>&1; tail -5 $D/logs/call1-tests.log"
tar czf $OUT/logs.tgz $D/logs
step accuracy bash -c "timeout 240 python3 $D/accuracy.py pairwise best best_fp32_accurate wgmma_3xtf32 --json $D/logs/call1-accuracy.json > $D/logs/call1-accuracy.txt 2> $D/logs/call1-accuracy.err; tail -3 $D/logs/call1-accuracy.txt; tail -3 $D/logs/call1-accuracy.err"
tar czf $OUT/logs.tgz $D/logs
step wait-sanitize wait $SAN
cp results/latest/sanitizer-*.log $D/logs/ 2>/dev/null
tail -4 $D/logs/call1-sanitize-pairwise.log $D/logs/call1-racecheck.log
tar czf $OUT/logs.tgz $D/logs
step grid bash -c "timeout 150 python3 -m matmul_opt --kernels pairwise --accuracy-k --grid pairwise best best_fp32_accurate cublas --json $D/logs/call1-grid.json > $D/logs/call1-grid.txt 2> $D/logs/call1-grid.err; tail -60 $D/logs/call1-grid.txt"
tar czf $OUT/logs.tgz $D/logs
