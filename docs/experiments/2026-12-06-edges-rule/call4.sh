#!/usr/bin/env bash
# Device call 4 of this record: as call 2 (branch edges-hook's library and files). launches.py on every product
# that call 2's sweep cut (cut_shapes.txt), and the sweep again, for its spread.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
rm -rf /tmp/hook && cp -r . /tmp/hook && tar -xf .gitcarry/s17/hook-files.tar -C /tmp/hook && cd /tmp/hook
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s17/lib_hook.so.gz > matmul_opt/libmatmul.so
R=docs/experiments/2026-12-06-edges-rule
timeout 200 python3 $R/launches.py $(cat $R/cut_shapes.txt) 2>&1 | grep -v Warn > $OUT/launches.txt
timeout 200 python3 $R/sweep.py > $OUT/sweep.txt 2>&1
