#!/usr/bin/env bash
# Device call 6 (from branch mid-spare, not run yet): the host patterns with main's results.py (.gitcarry/before.tgz:
# `git archive main matmul_opt | gzip`, run from /tmp/before) against the branch's, where a mid-sized result that finds
# no block in the pool takes a spare whose pages were mapped in the background and is locked then (call 5 of this
# record: locking a block whose huge pages are mapped costs 0.17-0.37 ms at 4 MiB, against 0.8-1.1 for fresh memory).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-huge-pages
L=$D/logs; mkdir -p $L
source tools/device_env.sh
mkdir -p /tmp/before && tar xzf .gitcarry/before.tgz -C /tmp/before
LIB=$PWD/matmul_opt/libmatmul.so
step patterns bash -c "for round in 1 2; do for n in 1024 4096; do for p in reassign keep chain alternate; do
    echo \"\$round \$n \$p before \$(PYTHONPATH=/tmp/before:\$PYTHONPATH MATMUL_OPT_LIBRARY=$LIB timeout 60 python3 $D/patterns.py \$p \$n)\"
    echo \"\$round \$n \$p after \$(timeout 60 python3 $D/patterns.py \$p \$n)\"; done; done
    echo \"\$round 1024 keep-torch before \$(PYTHONPATH=/tmp/before:\$PYTHONPATH MATMUL_OPT_LIBRARY=$LIB timeout 60 python3 $D/patterns.py keep 1024 --torch)\"
    echo \"\$round 1024 keep-torch after \$(timeout 60 python3 $D/patterns.py keep 1024 --torch)\"; done > $L/call6-patterns.txt 2>&1; cat $L/call6-patterns.txt | cut -c1-200"
tar czf $OUT/logs.tgz $L
