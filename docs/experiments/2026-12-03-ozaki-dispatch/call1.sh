#!/usr/bin/env bash
# Device call 1: ozaki_int8 against wgmma_3xtf32 (and cuBLAS fp32) on large products, rested and after 3 s of
# their own launches, cubes and non-cubes from 1.1e12 to 8.8e12 FLOPs (six shapes, to fit the device time left): where should best_fp32_accurate take it?
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-ozaki-dispatch
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
SHAPES="8192 12288 16384 16384x16384x4096 8192x8192x32768 32768x8192x8192"
step report bash -c "timeout 270 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes $SHAPES \
    --sustained-sizes $SHAPES --verify-size 256 --accuracy-k --repetitions 5 --json $D/logs/call1-report.json \
    > $D/logs/call1-report.txt 2>&1; tail -60 $D/logs/call1-report.txt"
tar czf $OUT/logs.tgz $D/logs
