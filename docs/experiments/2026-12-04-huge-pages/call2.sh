#!/usr/bin/env bash
# Device call 2: the host patterns with results.py before (the package of .gitcarry/before.tgz, run from /tmp/before)
# and after the change to huge-page blocks and locked spares, in alternating fresh processes, two rounds.
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
    echo \"\$round 1024 keep-torch after \$(timeout 60 python3 $D/patterns.py keep 1024 --torch)\"; done > $L/call2-patterns.txt 2>&1; cat $L/call2-patterns.txt | cut -c1-200"
tar czf $OUT/logs2.tgz $L
