#!/usr/bin/env bash
# Device call 4: tools.host_patterns at 1024^3 with the landed policy and with the tree of b1f1a49 (the host-spare
# policy, this call's library), one after the other on one machine; then the same at 4096^3 while device time lasts.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-host-register
L=$PWD/$D/logs
mkdir -p $L
source tools/device_env.sh >/dev/null 2>&1
git worktree add -q -f /tmp/base b1f1a49 && cp matmul_opt/libmatmul.so /tmp/base/matmul_opt/
for n in 1024 4096; do
    step landed-$n bash -c "timeout 60 python3 -m tools.host_patterns --sizes $n > $L/call4-landed-$n.txt 2>&1; cat $L/call4-landed-$n.txt"
    cp $L/call4-* $OUT/
    step base-$n bash -c "cd /tmp/base && PYTHONPATH=/tmp/base timeout 60 python3 -m tools.host_patterns --sizes $n > $L/call4-base-$n.txt 2>&1; cat $L/call4-base-$n.txt"
    cp $L/call4-* $OUT/
done
