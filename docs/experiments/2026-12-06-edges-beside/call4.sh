#!/usr/bin/env bash
# Device call 4 of this record: run from the checkout with .gitcarry/s15/lib_head.so.gz (main's head) and
# lib_beside.so.gz (the change) carried. The kernels of one call of best, their streams and times, with each library
# (timeline.py), on the cut shape that call 3's asv measured slower and two it measured faster; the change's test.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
for lib in head beside; do gunzip -c .gitcarry/s15/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_beside.so matmul_opt/libmatmul.so
HERE=docs/experiments/2026-12-06-edges-beside
for lib in head beside; do
    echo "== $lib"
    MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so timeout 60 python3 $HERE/timeline.py 3001x257x5003 129x4097x2000 \
        1153x1153x1153 2>&1 | tee $OUT/timeline-$lib.txt
done
timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py -k beside 2>&1 | tail -3
