#!/usr/bin/env bash
# Before this record's calls (device call 1 of the session): main at a35f72b (its library carried): the whole GPU
# tier, skinny and best under memcheck/racecheck/synccheck, and the shape grid report (best, best_tf32,
# best_fp32_accurate beside cuBLAS fp32 / TF32, with the roofline).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
gunzip -c .gitcarry/s20/lib_head.so.gz > matmul_opt/libmatmul.so
step report timeout 150 python3 -m matmul_opt --sizes 1024 --kernels best cublas --accuracy-k \
    --grid best cublas best_tf32 cublas_tf32 best_fp32_accurate --json $OUT/grid.json > $OUT/grid.txt 2>&1
tail -60 $OUT/grid.txt
step tests timeout 240 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head; tail -1 $OUT/tests.log
step sanitize timeout 150 python3 -m tools.sanitize --tools memcheck,racecheck,synccheck --kernels skinny,best \
    --jobs 4 > $OUT/sanitize.txt 2>&1
tail -4 $OUT/sanitize.txt
