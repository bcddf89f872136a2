#!/usr/bin/env bash
# Device call 1, run from main's checkout with the branch carried in .gitcarry/s6: op.tgz (`git archive ozaki-passes
# | gzip`), its library lib_op.so.gz and main's lib_main.so.gz (both built here, gzipped). Carry .gitcarry/s6.
# The branch also holds the scaling check (record 2026-12-04-ozaki-guard), which this call measures with the passes.
# The rung's GPU tests, the SASS check and the fp32-accurate dispatcher's tests with the four sanitizers over the
# rung beside them; each kernel's time under Nsight Compute at 4096^3 and 8192^3 (the rung record's phases.py); the
# report's speed and accuracy tables of ozaki_int8 beside wgmma_3xtf32 and cuBLAS, rested and sustained; and an A/B
# of main's library against the branch's on ozaki_int8 over the asv shapes, in alternating processes.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-ozaki-passes
mkdir -p /tmp/op && tar xzf .gitcarry/s6/op.tgz -C /tmp/op
gunzip -c .gitcarry/s6/lib_op.so.gz > /tmp/op/matmul_opt/libmatmul.so
gunzip -c .gitcarry/s6/lib_main.so.gz > /tmp/lib_main.so
cd /tmp/op
L=$PWD/$D/logs; mkdir -p $L
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
tar czf $OUT/logs.tgz -C /tmp/op $D/logs docs/experiments/2026-12-04-ozaki-guard/logs
step ncu bash -c "timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum,\
sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    python3 docs/experiments/2026-12-03-ozaki-rung/phases.py 4096 8192 > $L/call1-ncu.txt 2>&1"
grep -E "^  [a-zA-Z]|duration" $L/call1-ncu.txt | grep -v elementwise | cut -c1-100 | tail -24
step report timeout 150 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k 1 16 256 4096 65536 --json $L/call1-report.json > $L/call1-report.txt 2>&1
tail -30 $L/call1-report.txt
# The scaling check (record ozaki-guard): ozaki_int8 on rescaled operands with main's library (unchecked) and the
# branch's, beside wgmma_3xtf32 and cuBLAS.
G=$PWD/docs/experiments/2026-12-04-ozaki-guard/logs
step rescaled bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 60 python3 $G/../rescaled.py > $G/call1-rescaled-main.txt 2>&1;
    timeout 60 python3 $G/../rescaled.py > $G/call1-rescaled-branch.txt 2>&1"
cat $G/call1-rescaled-main.txt $G/call1-rescaled-branch.txt
step ab timeout 120 python3 -m tools.ab_compare /tmp/lib_main.so matmul_opt/libmatmul.so --rounds 3 \
    --kernels ozaki_int8 --json $L/call1-ab.json > $L/call1-ab.txt 2>&1
tail -12 $L/call1-ab.txt
tar czf $OUT/logs.tgz -C /tmp/op $D/logs docs/experiments/2026-12-04-ozaki-guard/logs
