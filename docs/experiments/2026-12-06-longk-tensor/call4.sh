#!/usr/bin/env bash
# Device call 4 of this record, from the branch head with .gitcarry/s20/lib_final.so.gz (its library: best_tf32's
# tile bound at 9) carried: the whole GPU tier, and the shape grid report of best and best_tf32 beside cuBLAS fp32
# and TF32, with the roofline.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
gunzip -c .gitcarry/s20/lib_final.so.gz > matmul_opt/libmatmul.so
step tests timeout 240 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head; tail -1 $OUT/tests.log
step report timeout 150 python3 -m matmul_opt --sizes 1024 --kernels best cublas --accuracy-k \
    --grid best cublas best_tf32 cublas_tf32 --json $OUT/grid.json > $OUT/grid.txt 2>&1
tail -56 $OUT/grid.txt
