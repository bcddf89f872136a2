#!/usr/bin/env bash
# Device call 8 of this record: run from the checkout with .gitcarry/s15/lib_beside.so.gz (the change) and
# lib_margin.so.gz (the change with kCutMargin 0.75) carried. best and cuBLAS on
# products whose tiles leave a row or column or a few (ab_best.py), the two libraries in alternating processes,
# three rounds.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
for lib in beside margin; do gunzip -c .gitcarry/s15/lib_$lib.so.gz > /tmp/lib_$lib.so; done
SHAPES="2049x2047x999 385x769x1537 1537x2561x1025 257x6001x777 65x65x65 257x3072x1024 10000x2000x100"
SHAPES+=" 3001x257x5003 1153x1153x1153 129x4097x2000"
for i in 1 2 3; do
    for lib in beside margin; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 docs/experiments/2026-12-06-edges-beside/ab_best.py \
            $SHAPES > $OUT/ab-$lib-$i.txt 2>&1
    done
done
cat $OUT/ab-*.txt
