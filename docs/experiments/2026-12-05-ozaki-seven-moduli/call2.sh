#!/usr/bin/env bash
# Device call 2 of branch ozaki-seven, carried as call 1: the report's speed and accuracy tables of ozaki_int8
# beside wgmma_3xtf32 and cuBLAS fp32, rested and sustained; and an A/B of branch ozaki-passes's library (eight
# moduli everywhere) against this branch's on ozaki_int8 over the asv shapes, in alternating processes.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-05-ozaki-seven-moduli
mkdir -p /tmp/o7 && tar xzf .gitcarry/s7/o7.tgz -C /tmp/o7
gunzip -c .gitcarry/s7/lib_o7.so.gz > /tmp/o7/matmul_opt/libmatmul.so
gunzip -c .gitcarry/s6/lib_op.so.gz > /tmp/lib_op.so
cd /tmp/o7
L=$PWD/$D/logs; mkdir -p $L
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call2-environment.txt
step report timeout 150 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k 1 16 256 4096 65536 --json $L/call2-report.json > $L/call2-report.txt 2>&1
tail -30 $L/call2-report.txt
tar czf $OUT/logs.tgz $D/logs
step ab timeout 150 python3 -m tools.ab_compare /tmp/lib_op.so matmul_opt/libmatmul.so --rounds 3 \
    --kernels ozaki_int8 --json $L/call2-ab.json > $L/call2-ab.txt 2>&1
tail -12 $L/call2-ab.txt
tar czf $OUT/logs.tgz $D/logs
