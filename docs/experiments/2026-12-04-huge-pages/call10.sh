#!/usr/bin/env bash
# Device call 10: call 9's host patterns again (its pattern step ran no product: the library's path was not exported
# to the shell that ran them). Main's package against branch first-spare-locked's, both on main's library, the host
# patterns at 1024^3 in alternating processes, three rounds.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-huge-pages
L=$D/logs; mkdir -p $L
source tools/device_env.sh
for side in before after; do mkdir -p /tmp/$side && tar xzf .gitcarry/s3/$side.tgz -C /tmp/$side; done
export LIB=$PWD/matmul_opt/libmatmul.so
with() { local side=$1; shift; PYTHONPATH=/tmp/$side:$PWD MATMUL_OPT_LIBRARY=$LIB timeout 60 python3 "$@" 2>&1 | tail -1; }
step patterns bash -c "$(declare -f with); for round in 1 2 3; do for p in reassign keep chain alternate; do
    for side in before after; do echo \"\$round 1024 \$p \$side \$(with \$side $D/patterns.py \$p 1024)\"; done
    done; done > $L/call10-patterns.txt; grep -c total $L/call10-patterns.txt"
