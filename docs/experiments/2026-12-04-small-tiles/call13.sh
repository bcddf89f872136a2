#!/usr/bin/env bash
# Device call 13, at the landing of the retuned tables (calls 10-12) and of the mid-sized spare with its mapping
# threads started at once (huge-pages calls 6-7): the whole test suite; the host patterns at 1024^3 and 4096^3,
# main's package before the landing (.gitcarry/s2/before.tgz, 58ab8e4) against the landing's, alternating processes,
# two rounds, and spare_timing.py on the kept pattern (logs into the huge-pages record as its call 8).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
H=docs/experiments/2026-12-04-huge-pages
L=$D/logs; mkdir -p $L $H/logs
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call13-environment.txt
mkdir -p /tmp/before && tar xzf .gitcarry/s2/before.tgz -C /tmp/before
LIB=$PWD/matmul_opt/libmatmul.so
step patterns bash -c "for round in 1 2; do for n in 1024 4096; do for p in reassign keep chain alternate keep-torch; do
    a=\$p; x=''; [ \$p = keep-torch ] && a=keep x=--torch
    echo \"\$round \$n \$p before \$(PYTHONPATH=/tmp/before:$PWD MATMUL_OPT_LIBRARY=$LIB timeout 60 python3 $H/patterns.py \$a \$n \$x 2>&1 | tail -1)\"
    echo \"\$round \$n \$p after \$(timeout 60 python3 $H/patterns.py \$a \$n \$x 2>&1 | tail -1)\"; done; done; done > $H/logs/call8-patterns.txt 2>&1; wc -l < $H/logs/call8-patterns.txt"
step spare bash -c "for round in 1 2; do echo \"== \$round\"; timeout 60 python3 $H/spare_timing.py keep 1024; done > $H/logs/call8-spare-timing.txt 2>&1; grep -c call_ms $H/logs/call8-spare-timing.txt"
tar czf $OUT/logs.tgz $L $H/logs
step pytest bash -c "timeout 250 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $L/call13-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call13-pytest.log | head; tail -1 $L/call13-pytest.log"
tar czf $OUT/logs.tgz $L $H/logs
