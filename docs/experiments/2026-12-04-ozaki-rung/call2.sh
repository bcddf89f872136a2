#!/usr/bin/env bash
# Device call 2 of the ozaki_int8 rung: after the residue pass, the epilogue and the rebuild reduce by
# multiplication (residue_of) instead of 64-bit and run-time divisions: the rung's tests, each pass's time under
# Nsight Compute at 4096³ and 8192³, and the speed table of call 1 (rested and sustained).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-ozaki-rung
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
step tests bash -c "timeout 200 python3 -m pytest -q -p no:cacheprovider -x tests/test_gpu_ozaki.py tests/test_sass.py \
    tests/test_gpu_kernels.py tests/test_gpu_hardening.py -k 'ozaki' > $D/logs/call2-tests.log 2>&1; tail -3 $D/logs/call2-tests.log"
step ncu bash -c "timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    python3 $D/phases.py 4096 8192 > $D/logs/call2-ncu.txt 2>&1; grep -E '^  [a-zA-Z]|duration' $D/logs/call2-ncu.txt | grep -v elementwise | cut -c1-90 | tail -24"
tar czf $OUT/logs.tgz $D/logs
step report bash -c "timeout 200 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k 1 16 4096 65536 --json $D/logs/call2-report.json > $D/logs/call2-report.txt 2>&1; tail -24 $D/logs/call2-report.txt"
tar czf $OUT/logs.tgz $D/logs
