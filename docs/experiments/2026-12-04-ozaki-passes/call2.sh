#!/usr/bin/env bash
# Device call 2, as call 1 (carry .gitcarry/s6): the report's speed and accuracy tables of ozaki_int8 beside
# wgmma_3xtf32 and cuBLAS fp32, rested and sustained; the tuner's ozaki sweep (ozaki_int8 against wgmma_3xtf32 after
# seconds of their own launches on large products) merged into the saved timings, with the precision table it writes;
# an A/B of main's library against the branch's on ozaki_int8 over the asv shapes, in alternating processes; and
# cuBLAS fp32's error by the size of C (record 2026-12-05-ozaki-seven-moduli's cublas_orders.py).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-ozaki-passes
mkdir -p /tmp/op && tar xzf .gitcarry/s6/op.tgz -C /tmp/op
gunzip -c .gitcarry/s6/lib_op.so.gz > /tmp/op/matmul_opt/libmatmul.so
gunzip -c .gitcarry/s6/lib_main.so.gz > /tmp/lib_main.so
cd /tmp/op
L=$PWD/$D/logs; mkdir -p $L
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call2-environment.txt
step report timeout 150 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k 1 16 256 4096 65536 --json $L/call2-report.json > $L/call2-report.txt 2>&1
tail -30 $L/call2-report.txt
tar czf $OUT/logs.tgz $D/logs
step tune bash -c "timeout 200 python3 -m matmul_opt.tune --from-json results/latest/tune-h200.json --remeasure ozaki \
    --json $L/call2-tune.json --write > $L/call2-tune.txt 2> $L/call2-tune.err; cp cuda/kernels/precision_table.h $L/"
grep -A1 "kOzakiMin" $L/precision_table.h; grep "^ozaki" $L/call2-tune.txt
step ab timeout 120 python3 -m tools.ab_compare /tmp/lib_main.so matmul_opt/libmatmul.so --rounds 3 \
    --kernels ozaki_int8 --json $L/call2-ab.json > $L/call2-ab.txt 2>&1
tail -12 $L/call2-ab.txt
tar czf $OUT/logs.tgz $D/logs
S=docs/experiments/2026-12-05-ozaki-seven-moduli
mkdir -p $S/logs
step orders timeout 90 python3 $S/cublas_orders.py > $S/logs/call2-cublas-orders.txt 2>&1
cat $S/logs/call2-cublas-orders.txt
tar czf $OUT/logs.tgz $D/logs $S/logs
