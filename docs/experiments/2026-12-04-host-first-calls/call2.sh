#!/usr/bin/env bash
# Device call 2: the library with every kernel module loaded at its first launch on a GPU (core/module_loading.h).
# First launches on GPU arrays, tools.host_patterns, the GPU test tier, and memcheck over the GPU-array tests.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-host-first-calls
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $L/call2-environment.txt
save() { tar czf $OUT/logs.tgz $L; }
step first-launch bash -c "timeout 60 python3 $D/first_launch.py > $L/call2-first-launch.txt 2>&1; grep -v '^{' $L/call2-first-launch.txt"
step patterns bash -c "timeout 200 python3 -m tools.host_patterns --sizes 1024 4096 > $L/call2-host-patterns.txt 2>&1; cat $L/call2-host-patterns.txt"
save
step tests bash -c "timeout 300 python3 -m pytest tests -q -x -p no:cacheprovider > $L/call2-tests.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call2-tests.log | head; tail -1 $L/call2-tests.log"
save
step memcheck bash -c "timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest tests/test_gpu_native_ops.py -q -x -p no:cacheprovider > $L/call2-memcheck.log 2>&1; echo rc=\$?; grep -E 'ERROR SUMMARY|passed|failed' $L/call2-memcheck.log | tail -3"
save
