#!/usr/bin/env bash
# Device call 2 of the integration record, carried as call 1 (.gitcarry/s8). Timed, nothing beside it: the tuner's
# precision sweep (wgmma_tf32's small sides, the register split against wgmma_3xtf32) and ozaki sweep (ozaki_int8
# against wgmma_3xtf32 after seconds of their own launches) measured anew with next's library and merged into the
# saved timings, with the precision table they write; the report's rows of ozaki_int8 beside wgmma_3xtf32 and
# cuBLAS fp32, rested and sustained (issue 36's speed table, on the library as tuned before this call); and cuBLAS
# fp32's error by the size of C (the ozaki-seven record's cublas_orders.py). The table comes back in the logs: build
# the library with it here, commit it, and run call 3 (asv) on that commit.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-05-integration
S=docs/experiments/2026-12-05-ozaki-seven-moduli
mkdir -p /tmp/nx && tar xzf .gitcarry/s8/next.tgz -C /tmp/nx
gunzip -c .gitcarry/s8/lib_next.so.gz > /tmp/nx/matmul_opt/libmatmul.so
cd /tmp/nx
L=$PWD/$D/logs; mkdir -p $L
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call2-environment.txt
step tune bash -c "timeout 300 python3 -m matmul_opt.tune --from-json results/latest/tune-h200.json \
    --remeasure precision,ozaki --json $L/call2-tune.json --write > $L/call2-tune.txt 2> $L/call2-tune.err;
    cp cuda/kernels/precision_table.h $L/"
grep "inline constexpr" $L/precision_table.h
tar czf $OUT/logs.tgz $D/logs
step report timeout 170 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k 1 16 256 4096 65536 --json $L/call2-report.json > $L/call2-report.txt 2>&1
tail -30 $L/call2-report.txt
tar czf $OUT/logs.tgz $D/logs
step orders timeout 90 python3 $S/cublas_orders.py > $L/call2-cublas-orders.txt 2>&1
cat $L/call2-cublas-orders.txt
tar czf $OUT/logs.tgz $D/logs
