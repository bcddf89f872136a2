#!/usr/bin/env bash
# Device call 3 of this record: as call 2 (branch edges-hook's library and files). launches.py on the sweep's
# losers and some winners.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
rm -rf /tmp/hook && cp -r . /tmp/hook && tar -xf .gitcarry/s17/hook-files.tar -C /tmp/hook && cd /tmp/hook
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s17/lib_hook.so.gz > matmul_opt/libmatmul.so
timeout 200 python3 docs/experiments/2026-12-06-edges-rule/launches.py 6145x129x5003 129x6145x5003 3001x129x5003 \
    129x3001x5003 4097x129x5003 513x129x5003 2049x129x5003 513x4097x5003 257x3001x5003 3001x257x5003 \
    513x3001x5003 1025x129x1000 6145x6145x515 2>&1 | grep -v Warn > $OUT/launches.txt
