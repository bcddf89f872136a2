#!/usr/bin/env bash
# Device call 1: what a new result block costs to lock in 4 KiB and in 2 MiB pages (lock_cost.py, each way in its
# own process, two rounds), and the host patterns with the library's blocks as they are, in huge pages or in small
# pages only (patterns.py, fresh processes, two rounds; 4096 and 1024, and the kept pattern after import torch).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-huge-pages
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; uname -r;
  nproc; grep -i huge /proc/meminfo; } > $L/call1-environment.txt
step lock bash -c "for round in 1 2; do for way in default small huge default-populated small-populated huge-populated; do
    timeout 60 python3 $D/lock_cost.py \$way; done; done > $L/call1-lock.txt 2>&1; grep -v '^thp\|^numpy' $L/call1-lock.txt | cut -c1-150; head -4 $L/call1-lock.txt"
step patterns bash -c "for round in 1 2; do for n in 1024 4096; do for p in reassign keep chain alternate; do for b in library huge small; do
    echo \"\$round \$n \$p \$b \$(timeout 60 python3 $D/patterns.py \$p \$n --blocks \$b)\"; done; done; done;
    for b in library huge; do echo \"\$round 1024 keep-torch \$b \$(timeout 60 python3 $D/patterns.py keep 1024 --torch --blocks \$b)\"; done; done > $L/call1-patterns.txt 2>&1; cat $L/call1-patterns.txt"
