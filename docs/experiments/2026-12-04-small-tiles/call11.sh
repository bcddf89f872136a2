#!/usr/bin/env bash
# Device call 11: (1) the tuner of branch retune (panels up to 384 rows) in its own tree with main's library, its
# tables and timings into logs/call11-*; (2) spare_timing.py over the kept pattern at 1024^3 in branch mid-spare's
# tree and in branch mid-spare-aside's (the spare made wholly by a background thread); (3) the host patterns at
# 1024^3, mid-spare against mid-spare-aside, alternating processes, two rounds (logs into the huge-pages record).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
H=docs/experiments/2026-12-04-huge-pages
S=$PWD/.gitcarry/s1
source tools/device_env.sh
gunzip -c $S/lib_main.so.gz > /tmp/lib_main.so
for t in retune mid-spare mid-spare-aside; do mkdir -p /tmp/$t && tar xzf $S/$t.tgz -C /tmp/$t && cp /tmp/lib_main.so /tmp/$t/matmul_opt/libmatmul.so; done
mkdir -p /tmp/retune/$D/logs /tmp/mid-spare/$H/logs
{ echo "branches retune, mid-spare, mid-spare-aside with main's library (58ab8e4)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > /tmp/retune/$D/logs/call11-environment.txt
step tune bash -c "cd /tmp/retune && timeout 200 python3 -m matmul_opt.tune --json $D/logs/call11-tune.json --write > $D/logs/call11-tune.txt 2> $D/logs/call11-tune.err;
    tail -1 $D/logs/call11-tune.err; cp cuda/kernels/best_table.h $D/logs/call11-best_table.h; cp cuda/kernels/precision_table.h $D/logs/call11-precision_table.h"
tar czf $OUT/small-tiles-logs.tgz -C /tmp/retune $D/logs
step spare bash -c "for round in 1 2; do for t in mid-spare mid-spare-aside; do echo \"== \$round \$t\";
    (cd /tmp/\$t && timeout 60 python3 $H/spare_timing.py keep 1024); done; done > /tmp/mid-spare/$H/logs/call7-spare-timing.txt 2>&1; grep -c call_ms /tmp/mid-spare/$H/logs/call7-spare-timing.txt"
step patterns bash -c "for round in 1 2; do for p in reassign keep chain alternate keep-torch; do for t in mid-spare mid-spare-aside; do
    a=\$p; x=''; [ \$p = keep-torch ] && a=keep x=--torch
    echo \"\$round 1024 \$p \$t \$(cd /tmp/\$t && timeout 60 python3 $H/patterns.py \$a 1024 \$x)\"; done; done; done > /tmp/mid-spare/$H/logs/call7-patterns.txt 2>&1; wc -l < /tmp/mid-spare/$H/logs/call7-patterns.txt"
tar czf $OUT/huge-pages-logs.tgz -C /tmp/mid-spare $H/logs
