#!/usr/bin/env bash
# Device call 3 of the ozaki_int8 rung, after its passes reduce by multiplication (residue_of) instead of 64-bit
# and run-time divisions, in one call with the host-spare record's call 2 (the tree held both changes): the rung's
# tests with the host path's, the four sanitizers over the rung, each pass's time under Nsight Compute at 4096³ and
# 8192³, the speed table of call 1 (rested and sustained) with four K of the accuracy tables.
export OUT=${OUT:-/tmp/out}
O=docs/experiments/2026-12-03-ozaki-rung
H=docs/experiments/2026-12-03-host-spare
mkdir -p $O/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
( timeout 200 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 --timeout 180 > $O/logs/call3-sanitize.log 2>&1
  for f in results/latest/sanitizer-*-ozaki_int8.log; do cp $f $O/logs/call3-${f##*/}; done ) &
step tests bash -c "timeout 260 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_sass.py \
    tests/test_gpu_host_path.py tests/test_cpu_results.py tests/test_cpu_memory.py \
    > $O/logs/call3-tests.log 2>&1; tail -4 $O/logs/call3-tests.log"
step wait-sanitize wait
tail -6 $O/logs/call3-sanitize.log
tar czf $OUT/logs.tgz $O/logs
step ncu bash -c "timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    python3 $O/phases.py 4096 8192 > $O/logs/call3-ncu.txt 2>&1; grep -E '^  [a-zA-Z]|duration' $O/logs/call3-ncu.txt | grep -v elementwise | cut -c1-100 | tail -20"
step report bash -c "timeout 150 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k 1 16 4096 65536 --json $O/logs/call3-report.json > $O/logs/call3-report.txt 2>&1; tail -22 $O/logs/call3-report.txt"
tar czf $OUT/logs.tgz $O/logs
step patterns bash $H/call2.sh
tar czf $OUT/logs.tgz $O/logs $H
