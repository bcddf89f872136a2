#!/usr/bin/env bash
# Device call 9 (from branch first-spare-locked, not run yet): the process's first mid-sized spare locked in the call
# that made the first mid-sized block (most often the process's first call, which starts CUDA anyway), so that the
# second call takes a block with nothing left to lock (call 8: the second call locked the spare, 0.4-0.9 ms of its
# 1.6-2.3). Main's package (.gitcarry/before.tgz: `git archive main matmul_opt | gzip`) against the branch's, the host
# patterns at 1024^3, alternating processes, three rounds; spare_timing.py on both.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-huge-pages
L=$D/logs; mkdir -p $L
source tools/device_env.sh
mkdir -p /tmp/before && tar xzf .gitcarry/before.tgz -C /tmp/before
LIB=$PWD/matmul_opt/libmatmul.so
before() { PYTHONPATH=/tmp/before:$PWD MATMUL_OPT_LIBRARY=$LIB timeout 60 python3 "$@" 2>&1 | tail -1; }
after() { timeout 60 python3 "$@" 2>&1 | tail -1; }
step patterns bash -c "$(declare -f before after); for round in 1 2 3; do for p in reassign keep chain alternate; do
    echo \"\$round 1024 \$p before \$(before $D/patterns.py \$p 1024)\"
    echo \"\$round 1024 \$p after \$(after $D/patterns.py \$p 1024)\"; done; done > $L/call9-patterns.txt; wc -l < $L/call9-patterns.txt"
step spare bash -c "for round in 1 2; do echo \"== \$round before\"; PYTHONPATH=/tmp/before:$PWD MATMUL_OPT_LIBRARY=$LIB timeout 60 python3 $D/spare_timing.py keep 1024;
    echo \"== \$round after\"; timeout 60 python3 $D/spare_timing.py keep 1024; done > $L/call9-spare-timing.txt 2>&1; grep -c call_ms $L/call9-spare-timing.txt"
tar czf $OUT/logs.tgz $L
