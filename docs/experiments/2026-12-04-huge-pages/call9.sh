#!/usr/bin/env bash
# Device call 9: the process's first mid-sized spare locked in the call that made the first mid-sized block (branch
# first-spare-locked, merged with main), so that the second call takes a block with nothing left to lock (call 8:
# the second call locked the spare, 0.4-0.9 ms of its 1.6-2.3). Main's package (.gitcarry/s3/before.tgz:
# `git archive main matmul_opt | gzip`) against the branch's (.gitcarry/s3/after.tgz), both on main's library, the
# host patterns at 1024^3 in alternating processes, three rounds; spare_timing.py on both. Then racecheck and
# initcheck over pipelined, warptile and skinny (their machine code changed with the quarter-warp pairs and the
# unguarded interior; the small-tiles record's runs of those two tools did not finish).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-huge-pages
L=$D/logs; mkdir -p $L
source tools/device_env.sh
for side in before after; do mkdir -p /tmp/$side && tar xzf .gitcarry/s3/$side.tgz -C /tmp/$side; done
LIB=$PWD/matmul_opt/libmatmul.so
with() { local side=$1; shift; PYTHONPATH=/tmp/$side:$PWD MATMUL_OPT_LIBRARY=$LIB timeout 60 python3 "$@" 2>&1 | tail -1; }
step patterns bash -c "$(declare -f with); for round in 1 2 3; do for p in reassign keep chain alternate; do
    for side in before after; do echo \"\$round 1024 \$p \$side \$(with \$side $D/patterns.py \$p 1024)\"; done
    done; done > $L/call9-patterns.txt; wc -l < $L/call9-patterns.txt"
step spare bash -c "for round in 1 2; do for side in before after; do echo \"== \$round \$side\";
    PYTHONPATH=/tmp/\$side:$PWD MATMUL_OPT_LIBRARY=$LIB timeout 60 python3 $D/spare_timing.py keep 1024; done; done \
    > $L/call9-spare-timing.txt 2>&1; grep -c call_ms $L/call9-spare-timing.txt"
step sanitize python3 -m tools.sanitize --tools racecheck,initcheck --kernels pipelined,warptile,skinny --jobs 6 \
    --timeout 330 > $L/call9-sanitize.txt 2>&1
mkdir -p $L/sanitizer && cp results/latest/sanitizer-{racecheck,initcheck}-{pipelined,warptile,skinny}.log $L/sanitizer/
tar czf $OUT/logs.tgz $L
