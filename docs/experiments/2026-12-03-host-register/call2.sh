#!/usr/bin/env bash
# Device call 2 of the host-register record: the host path's tests with page-locked result blocks, then
# tools.host_patterns on the result memory before (BASE, the tree of the host-spare record's policy, with this
# call's library) and after, one after the other on the same machine, fresh and after import torch.
export OUT=${OUT:-/tmp/out}
D=$PWD/docs/experiments/2026-12-03-host-register
BASE=${BASE:-b1f1a49}
mkdir -p $D/logs
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call2-environment.txt
step pytest bash -c "timeout 150 python3 -m pytest tests/test_gpu_host_path.py tests/test_cpu_results.py tests/test_cpu_memory.py tests/test_gpu_arrays.py -q -rfEs -p no:cacheprovider > $D/logs/call2-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call2-pytest.log | head; tail -1 $D/logs/call2-pytest.log"
tar czf $OUT/logs.tgz $D/logs
git worktree add -q -f /tmp/base $BASE && cp matmul_opt/libmatmul.so /tmp/base/matmul_opt/
step patterns-new bash -c "timeout 170 python3 -m tools.host_patterns --json $D/logs/call2-patterns-new.json > $D/logs/call2-patterns-new.txt 2>&1; cat $D/logs/call2-patterns-new.txt"
tar czf $OUT/logs.tgz $D/logs
step patterns-base bash -c "cd /tmp/base && PYTHONPATH=/tmp/base timeout 170 python3 -m tools.host_patterns > $D/logs/call2-patterns-base.txt 2>&1; cat $D/logs/call2-patterns-base.txt"
tar czf $OUT/logs.tgz $D/logs
