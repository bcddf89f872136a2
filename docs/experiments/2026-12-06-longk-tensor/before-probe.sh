#!/usr/bin/env bash
# Before this record's calls (device call 2 of the session): a probe. Kernels beside cuBLAS fp32/TF32 on long-K
# and mid-K shapes (grid and held out), main's library.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
gunzip -c .gitcarry/s20/lib_head.so.gz > matmul_opt/libmatmul.so
AB=docs/experiments/2026-12-06-write-streams/ab.py
LONG=300x40x100000,128x100x200000,500x500x60000,200x300x20000
LONG+=,64x64x1048576,100x60x150000,256x48x80000,400x400x30000,96x200x50000
MID=10000x2000x100,6000x6000x33,12000x1500x77,3000x7000x64,7000x3000x90
K1=best,cublas,cublas_tf32,wgmma_tf32,best_tf32,wgmma_3xtf32,wgmma_3xtf32_register_split,best_fp32_accurate,longk
step long timeout 200 python3 $AB --shapes $LONG --kernels $K1 --rounds 2 --repetitions 10 \
    --json $OUT/long.json > $OUT/long.txt 2>&1
cat $OUT/long.txt
K2=best,cublas,cublas_tf32,wgmma_tf32,best_tf32,wgmma_3xtf32,best_fp32_accurate
step mid timeout 150 python3 $AB --shapes $MID --kernels $K2 --rounds 2 --repetitions 10 \
    --json $OUT/mid.json > $OUT/mid.txt 2>&1
cat $OUT/mid.txt
