#!/usr/bin/env bash
# Device call 5 of this record: run from the checkout with .gitcarry/s15/lib_head.so.gz (main's head) carried.
# edges.py on six products that best cuts (its cuts as call 4's timelines show them): the edges after the bulk on
# one stream, beside it launched first or after it.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s15/lib_head.so.gz > matmul_opt/libmatmul.so
timeout 200 python3 docs/experiments/2026-12-06-edges-beside/edges.py 3001x257x5003:3001x256 129x4097x2000:128x4096 \
    8193x129x1000:8192x128 1153x1153x1153:1152x1152 6145x3073x515:6144x3072 4225x193x2000:4224x192 2>&1 | \
    tee $OUT/edges.txt
timeout 100 python3 docs/experiments/2026-12-06-edges-beside/timeline.py 8193x129x1000 6145x3073x515 \
    4225x193x2000 2>&1 | grep -v -i warn | tee $OUT/timeline.txt
