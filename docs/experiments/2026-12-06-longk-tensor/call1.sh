#!/usr/bin/env bash
# Device call 1 of this record, from the branch's working tree with .gitcarry/s20/lib_head.so.gz (main's library at
# a35f72b) and .gitcarry/s20/lib_new.so.gz (the branch's) carried: the longk kernels' GPU tests and the generic
# kernel tests of the two new rungs; times of the new rungs beside best, the dispatchers and cuBLAS on long-K
# products (grid and held out, ab.py of the write-streams record); longk before and after its move onto the frame;
# the accuracy sweep; the four sanitizers over the three longk kernels.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
R=docs/experiments/2026-12-06-longk-tensor
AB=docs/experiments/2026-12-06-write-streams/ab.py
gunzip -c .gitcarry/s20/lib_head.so.gz > /tmp/lib_main.so
gunzip -c .gitcarry/s20/lib_new.so.gz > matmul_opt/libmatmul.so
step tests timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_long_k_tensor.py \
    tests/test_gpu_long_k_kernel.py tests/test_gpu_kernels.py -k "longk or tf32_rungs" > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
LONG=300x40x100000,128x100x200000,500x500x60000,200x300x20000,64x64x1048576,32x32x300000,16x16x500000
HELD=100x60x150000,256x48x80000,400x400x30000,96x200x50000,48x48x400000,150x150x100000,20x200x200000,1x1x1000000
K1=best,cublas,cublas_tf32,longk,longk_tf32,longk_3xtf32,wgmma_tf32,best_tf32,best_fp32_accurate
step times timeout 150 python3 $AB --shapes $LONG,$HELD --kernels $K1 --rounds 2 --repetitions 10 \
    --json $OUT/times.json > $OUT/times.txt 2>&1
cat $OUT/times.txt
step longk-main env MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 60 python3 $AB \
    --shapes 32x32x300000,16x16x500000,20x30x100001,5x7x40003 \
    --kernels longk,cublas --rounds 3 --repetitions 20 > $OUT/longk-main.txt 2>&1
step longk-new timeout 60 python3 $AB --shapes 32x32x300000,16x16x500000,20x30x100001,5x7x40003 \
    --kernels longk,cublas --rounds 3 --repetitions 20 > $OUT/longk-new.txt 2>&1
tail -4 $OUT/longk-main.txt $OUT/longk-new.txt
step accuracy timeout 120 python3 $R/accuracy.py > $OUT/accuracy.txt 2>&1  # accuracy.py: dropped with longk_3xtf32
cat $OUT/accuracy.txt
step sanitize timeout 150 python3 -m tools.sanitize --kernels longk,longk_tf32,longk_3xtf32 --jobs 6 \
    > $OUT/sanitize.txt 2>&1
tail -13 $OUT/sanitize.txt
