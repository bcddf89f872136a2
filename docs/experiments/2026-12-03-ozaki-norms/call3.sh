#!/usr/bin/env bash
# Device call 3 of the norms scaling: call2.sh's second half, run apart because its first half (tests, sanitizers)
# shared a call with the streamed-skinny record's call1.sh: the Nsight Compute split of the passes, the speed beside
# wgmma_3xtf32 and cuBLAS (rested and sustained), and the error over the grid (the pairwise record's accuracy.py).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-ozaki-norms
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
[ -f matmul_opt/libmatmul.so ] || step link link_library
step ncu bash -c "timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-03-ozaki-rung/phases.py 4096 8192 \
    > $D/logs/call3-ncu.txt 2>&1; awk '/^  [a-zA-Z]/{name=\$0} /gpu__time_duration/{print substr(name,1,60), \$(NF-1), \$NF}' $D/logs/call3-ncu.txt | grep -v elementwise"
step report bash -c "timeout 150 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k 1 16 4096 65536 --json $D/logs/call3-report.json > $D/logs/call3-report.txt 2>&1; tail -22 $D/logs/call3-report.txt"
tar czf $OUT/logs-ozaki.tgz $D/logs
step accuracy bash -c "timeout 150 python3 docs/experiments/2026-12-03-pairwise/accuracy.py best_fp32_accurate ozaki_int8 \
    --json $D/logs/call3-accuracy.json > $D/logs/call3-accuracy.txt 2>&1; tail -3 $D/logs/call3-accuracy.txt"
tar czf $OUT/logs-ozaki.tgz $D/logs
