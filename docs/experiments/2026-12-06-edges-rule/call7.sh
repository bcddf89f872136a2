#!/usr/bin/env bash
# Device call 7 of this record: call 6's gate named 1153^3 3.0% slower at the head than at 795632b (the head ran
# first, on a fresh machine, the base after it; their kernels are byte-identical). Alternating processes of the two
# libraries, four rounds, each with its own package (795632b's from .gitcarry/s18/base, carried), through the
# edges-beside record's ab_best.py.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1
for lib in base head; do gunzip -c .gitcarry/s18/lib_$lib.so.gz > /tmp/lib_$lib.so; done
SHAPES="1153x1153x1153 1x1x1000000 2049x2047x999 3001x257x5003 129x4097x2000 8193x129x1000"
for i in 1 2 3 4; do
    for lib in base head; do
        package=$PWD; [ $lib = base ] && package=$PWD/.gitcarry/s18/base
        PYTHONPATH=$package MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 \
            docs/experiments/2026-12-06-edges-beside/ab_best.py $SHAPES > $OUT/ab-$lib-$i.txt 2>&1
    done
done
for lib in base head; do echo "== $lib"; cat $OUT/ab-$lib-*.txt | sort; done
