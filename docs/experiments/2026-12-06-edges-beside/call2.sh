#!/usr/bin/env bash
# Device call 2 of this record: run from the checkout with .gitcarry/s15/lib_head.so.gz (main's head) carried.
# Ragged-edge cuts with their edges beside the bulk on a second stream (edges.py).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s15/lib_head.so.gz > matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
timeout 120 python3 docs/experiments/2026-12-06-edges-beside/edges.py 1153x1153x1153:1152x1152 \
    1537x2561x1025:1536x2560 4097x4097x4097:4096x4096 385x769x1537:384x768 2>&1 | tee $OUT/edges.txt
