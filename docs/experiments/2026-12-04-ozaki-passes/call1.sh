#!/usr/bin/env bash
# Device call 1, run from main's checkout with the branch carried in .gitcarry/s6: op.tgz (`git archive ozaki-passes
# | gzip`), its library lib_op.so.gz and main's lib_main.so.gz (both built here, gzipped). Carry .gitcarry/s6.
# The branch holds the passes' rewrite and the scaling check (record 2026-12-04-ozaki-guard). Call 1: the rung's GPU
# tests, the generic tests over it, the SASS check, the fp32-accurate dispatcher's tests and the CPU test of the
# arithmetic, with the four sanitizers over the rung beside them; each kernel's time under Nsight Compute at 4096^3
# and 8192^3 (the rung record's phases.py); ozaki_int8 on rescaled operands with main's library and the branch's
# (the guard record's rescaled.py). Call 2 times it.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-ozaki-passes
G=docs/experiments/2026-12-04-ozaki-guard
mkdir -p /tmp/op && tar xzf .gitcarry/s6/op.tgz -C /tmp/op
gunzip -c .gitcarry/s6/lib_op.so.gz > /tmp/op/matmul_opt/libmatmul.so
gunzip -c .gitcarry/s6/lib_main.so.gz > /tmp/lib_main.so
cd /tmp/op
L=$PWD/$D/logs; mkdir -p $L $G/logs
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call1-environment.txt
(timeout 230 python3 -m tools.sanitize --tools memcheck,racecheck,initcheck,synccheck --kernels ozaki_int8 --jobs 4 \
    --timeout 220 > $L/call1-sanitize.txt 2>&1) &
step tests timeout 240 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_gpu_kernels.py \
    tests/test_gpu_hardening.py tests/test_sass.py \
    tests/test_gpu_precision.py tests/test_ozaki_arithmetic.py -k "ozaki or fp32_accurate" \
    > $L/call1-pytest.log 2>&1
tail -5 $L/call1-pytest.log
step sanitizers wait
cp results/latest/sanitizer-*-ozaki_int8.log $L/ 2>/dev/null
grep "==\|clean" $L/call1-sanitize.txt | tail -8
tar czf $OUT/logs.tgz $D/logs $G/logs
step ncu bash -c "timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum,\
sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    python3 docs/experiments/2026-12-03-ozaki-rung/phases.py 4096 8192 > $L/call1-ncu.txt 2>&1"
grep -E "^  [a-zA-Z]|duration" $L/call1-ncu.txt | grep -v elementwise | cut -c1-100 | tail -30
step rescaled bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 60 python3 $G/rescaled.py > $G/logs/call1-rescaled-main.txt 2>&1;
    timeout 60 python3 $G/rescaled.py > $G/logs/call1-rescaled-branch.txt 2>&1"
cat $G/logs/call1-rescaled-main.txt $G/logs/call1-rescaled-branch.txt
tar czf $OUT/logs.tgz $D/logs $G/logs
