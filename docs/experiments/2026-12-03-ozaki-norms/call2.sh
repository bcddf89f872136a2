#!/usr/bin/env bash
# Device call 2 of the norms scaling (to run before it lands): the generic GPU tests over ozaki_int8, the four
# sanitizers over it, its speed beside wgmma_3xtf32 and cuBLAS (rested and sustained, as the rung's record measured
# it) with the Nsight Compute split of its passes, and its error over the grid (the pairwise record's accuracy.py).
# asv runs in a call of its own (about 400 s).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-ozaki-norms
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
( timeout 200 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 --timeout 180 > $D/logs/call2-sanitize.log 2>&1
  for f in results/latest/sanitizer-*-ozaki_int8.log; do cp $f $D/logs/call2-${f##*/}; done ) &
step tests bash -c "timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_sass.py \
    tests/test_gpu_kernels.py tests/test_gpu_hardening.py -k ozaki > $D/logs/call2-tests.log 2>&1; tail -3 $D/logs/call2-tests.log"
step wait-sanitize wait
tail -6 $D/logs/call2-sanitize.log
tar czf $OUT/logs.tgz $D/logs
step ncu bash -c "timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-03-ozaki-rung/phases.py 4096 8192 \
    > $D/logs/call2-ncu.txt 2>&1; awk '/^  [a-zA-Z]/{name=\$0} /gpu__time_duration/{print substr(name,1,60), \$(NF-1), \$NF}' $D/logs/call2-ncu.txt | grep -v elementwise"
step report bash -c "timeout 150 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k 1 16 4096 65536 --json $D/logs/call2-report.json > $D/logs/call2-report.txt 2>&1; tail -22 $D/logs/call2-report.txt"
tar czf $OUT/logs.tgz $D/logs
step accuracy bash -c "timeout 150 python3 docs/experiments/2026-12-03-pairwise/accuracy.py best_fp32_accurate ozaki_int8 \
    --json $D/logs/call2-accuracy.json > $D/logs/call2-accuracy.txt 2>&1; tail -3 $D/logs/call2-accuracy.txt"
tar czf $OUT/logs.tgz $D/logs
