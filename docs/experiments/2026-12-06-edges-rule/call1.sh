#!/usr/bin/env bash
# Device call 1 of this record: run from main's checkout (0d66342) with .gitcarry/s17/lib_head.so.gz (its library)
# and, for the second half, .gitcarry/s17/lib_hook.so.gz (branch edges-hook's) and hook-files.tar (the branch's
# changed files) carried. Main's whole GPU tier and memcheck/synccheck over best: the review commit's host code (the
# per-device caches, the side-stream pool by device) had not run on a GPU. The second half imported main's package
# (PYTHONPATH kept main's checkout), so its sweep failed at the hook's missing symbol: call 2 ran it again.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
gunzip -c .gitcarry/s17/lib_head.so.gz > matmul_opt/libmatmul.so
step tests timeout 270 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tests.log 2>&1
tail -4 $OUT/tests.log
step sanitize timeout 60 python3 -m tools.sanitize --tools memcheck,synccheck --kernels best --jobs 2 \
    > $OUT/sanitize.txt 2>&1
tail -3 $OUT/sanitize.txt
