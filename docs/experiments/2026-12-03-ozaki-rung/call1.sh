#!/usr/bin/env bash
# Device call 1 of the ozaki_int8 rung (issue 36): its GPU tests and the generic ones over it, the SASS test, the four
# sanitizers over it; then, alone on the GPU, its speed beside cuBLAS SGEMM and wgmma_3xtf32 at 4096³, 8192³ and
# 16384³, rested and after 3 s of the same product, and the report's accuracy tables (256 x K x 256, both kinds).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-ozaki-rung
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,power.limit --format=csv; git rev-parse HEAD; date -u; } > $D/logs/call1-environment.txt
step link link_library
( timeout 300 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 --timeout 280 > $D/logs/call1-sanitize.log 2>&1
  for f in results/latest/sanitizer-*-ozaki_int8.log; do cp $f $D/logs/call1-${f##*/}; done 2>/dev/null ) &
step tests bash -c "timeout 280 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_sass.py \
    tests/test_gpu_kernels.py tests/test_gpu_hardening.py -k 'ozaki' > $D/logs/call1-tests.log 2>&1; tail -5 $D/logs/call1-tests.log"
step wait-sanitize wait
tail -6 $D/logs/call1-sanitize.log
tar czf $OUT/logs.tgz $D/logs
step report bash -c "timeout 240 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --json $D/logs/call1-report.json > $D/logs/call1-report.txt 2>&1; tail -40 $D/logs/call1-report.txt"
tar czf $OUT/logs.tgz $D/logs
