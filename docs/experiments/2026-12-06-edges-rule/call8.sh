#!/usr/bin/env bash
# Device call 8 of this record: run from main's checkout with .gitcarry/s18/lib_head.so.gz (the head's library)
# carried. clusters.py on the sweep's losers and some winners.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s18/lib_head.so.gz > matmul_opt/libmatmul.so
timeout 240 python3 docs/experiments/2026-12-06-edges-rule/clusters.py 6145x129x5003 3001x129x5003 129x3001x5003 \
    3001x257x5003 257x3001x5003 4097x129x5003 513x4097x5003 513x3001x5003 129x6145x5003 1025x129x5003 \
    2049x129x5003 1153x1153x1153 2049x2047x999 2>&1 | tee $OUT/clusters.txt
