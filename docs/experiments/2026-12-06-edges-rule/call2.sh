#!/usr/bin/env bash
# Device call 2 of this record: run from main's checkout (0d66342) with .gitcarry/s17/lib_hook.so.gz and
# hook-files.tar (branch edges-hook's library and changed files) carried. The branch's GPU tests of cuts and of the
# hook, and sweep.py.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
rm -rf /tmp/hook && cp -r . /tmp/hook && tar -xf .gitcarry/s17/hook-files.tar -C /tmp/hook && cd /tmp/hook
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s17/lib_hook.so.gz > matmul_opt/libmatmul.so
step hook-tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    -k "beside or cut" > $OUT/hook-tests.log 2>&1
tail -3 $OUT/hook-tests.log
step sweep timeout 400 python3 docs/experiments/2026-12-06-edges-rule/sweep.py > $OUT/sweep.txt 2>&1
grep -c yes $OUT/sweep.txt
