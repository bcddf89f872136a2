#!/usr/bin/env bash
# Device call 7 of this record: run from the checkout with .gitcarry/s15/lib_head.so.gz (main's head) and
# lib_beside.so.gz (the change) carried. best and cuBLAS on the six cut products and 4097^3 (ab_best.py), the two
# libraries in alternating processes, three rounds.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
for lib in head beside; do gunzip -c .gitcarry/s15/lib_$lib.so.gz > /tmp/lib_$lib.so; done
SHAPES="3001x257x5003 129x4097x2000 8193x129x1000 1153x1153x1153 6145x3073x515 4225x193x2000 4097x4097x4097"
for i in 1 2 3; do
    for lib in head beside; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 docs/experiments/2026-12-06-edges-beside/ab_best.py \
            $SHAPES > $OUT/ab-$lib-$i.txt 2>&1
    done
done
cat $OUT/ab-*.txt
