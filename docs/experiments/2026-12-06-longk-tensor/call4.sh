#!/usr/bin/env bash
# Device call 4 of this record, from the branch head with .gitcarry/s20/lib_final.so.gz (its library: best_tf32's
# tile bound at 9) carried: the whole GPU tier, and best_tf32 beside cuBLAS TF32 on the grid's long-K shapes.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
gunzip -c .gitcarry/s20/lib_final.so.gz > matmul_opt/libmatmul.so
step tests timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head; tail -1 $OUT/tests.log
step times timeout 40 python3 docs/experiments/2026-12-06-write-streams/ab.py \
    --shapes 300x40x100000,128x100x200000,64x64x1048576,32x32x300000,16x16x500000,130x130x100000 \
    --kernels best,cublas_tf32,longk_tf32,best_tf32 --rounds 3 --repetitions 10 > $OUT/times.txt 2>&1
cat $OUT/times.txt
