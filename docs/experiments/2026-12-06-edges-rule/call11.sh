#!/usr/bin/env bash
# Device call 11 of this record: call 10's one failed test again, corrected (the edges' K-slice reductions now run
# on the side stream, and the test counted every kernel not named skinny as the caller's), with the cut tests; from
# the checkout with .gitcarry/s19/lib_final.so.gz (3b1141b's library) carried.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s19/lib_final.so.gz > matmul_opt/libmatmul.so
timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py -k "beside or cut" \
    > $OUT/tests.log 2>&1
tail -1 $OUT/tests.log
