#!/usr/bin/env bash
# Device call 1: best_fp32_accurate with ozaki_int8 from 4e12 FLOPs. The dispatchers' GPU tests (the new one runs
# 12288^3 and 8192 x 8192 x 32768, either side of the bound), then ozaki_int8, wgmma_3xtf32 and the dispatcher on
# large products, rested and after 3 s of their own launches (sustained on two shapes, to fit the device time left).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-ozaki-dispatch
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
step tests bash -c "timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_precision.py > $D/logs/call1-tests.log 2>&1; tail -3 $D/logs/call1-tests.log"
tar czf $OUT/logs.tgz $D/logs
step report bash -c "timeout 150 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 best_fp32_accurate \
    --sizes 8192 12288 16384x16384x4096 8192x8192x32768 16384 --sustained-sizes 12288 8192x8192x32768 \
    --verify-size 256 --accuracy-k --repetitions 3 --json $D/logs/call1-report.json > $D/logs/call1-report.txt 2>&1; tail -24 $D/logs/call1-report.txt"
tar czf $OUT/logs.tgz $D/logs
