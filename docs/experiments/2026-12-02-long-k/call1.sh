#!/usr/bin/env bash
# Device call 1: the longk kernel's GPU tests and sanitizers (memcheck, racecheck), the probe (longk, skinny, best and
# cuBLAS on the grid's long-K shapes and on held-out ones), and the shape grid's report twice: the library as built
# (best unchanged) and build/variants/balanced.so.xz, best with the split count that gives the busiest SM the least K
# where K caps the policy's count.
export OUT=${OUT:-/tmp/out}
L=docs/experiments/2026-12-02-long-k/logs
mkdir -p $L
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD) + working tree"; date -u; } > $L/call1-environment.txt
step tests bash -c "timeout 100 python3 -m pytest tests/test_gpu_long_k_kernel.py -q -rfEs -p no:cacheprovider > $L/call1-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call1-pytest.log | head; tail -1 $L/call1-pytest.log"
step probe bash -c "timeout 200 python3 docs/experiments/2026-12-02-long-k/probe.py > $L/call1-probe.txt 2>&1; cat $L/call1-probe.txt"
step grid bash -c "timeout 60 python3 -m matmul_opt --sizes 4096 --kernels best cublas --rest 0.2 --grid > $L/call1-grid-main.txt 2>/dev/null; tail -3 $L/call1-grid-main.txt"
cp matmul_opt/libmatmul.so /tmp/main.so
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('build/variants/balanced.so.xz'), open('matmul_opt/libmatmul.so','wb'))"
step grid-balanced bash -c "timeout 60 python3 -m matmul_opt --sizes 4096 --kernels best cublas --rest 0.2 --grid > $L/call1-grid-balanced.txt 2>/dev/null; tail -3 $L/call1-grid-balanced.txt"
cp /tmp/main.so matmul_opt/libmatmul.so
cp -r $L $OUT/
step sanitize bash -c "timeout 150 python3 -m tools.sanitize --kernels longk --tools memcheck,racecheck > $L/call1-sanitize.log 2>&1; tail -4 $L/call1-sanitize.log; grep -h -i -m5 'error\|WRONG' results/latest/sanitizer-memcheck.log results/latest/sanitizer-racecheck.log | head"
cp results/latest/sanitizer-memcheck.log $L/call1-sanitizer-memcheck.log; cp results/latest/sanitizer-racecheck.log $L/call1-sanitizer-racecheck.log
cp -r $L $OUT/
