#!/usr/bin/env bash
# Device call 1: the GPU tests of best and the grid at this commit (best's long-K rule changed), and the sweep of
# every configuration and slice count on the mid-sized FLOP-bound shapes.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-mid-size
mkdir -p $D/logs
source tools/device_env.sh >/dev/null 2>&1
step link link_library
step sweep bash -c "timeout 240 python3 $D/sweep.py --json $D/logs/call1-sweep.json > $D/logs/call1-sweep.txt 2>&1; cat $D/logs/call1-sweep.txt"
tar czf $OUT/logs.tgz $D/logs
step tests bash -c "timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py \
    tests/test_gpu_long_k_kernel.py > $D/logs/call1-tests.log 2>&1; tail -4 $D/logs/call1-tests.log"
tar czf $OUT/logs.tgz $D/logs
