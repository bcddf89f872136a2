#!/usr/bin/env bash
# Device call 2 of this record, from the branch's working tree with .gitcarry/s20/lib_new.so.gz (the branch's
# library: longk_tf32 alone, its MMAs straight into the totals, best_tf32's rule) carried: the GPU tests of the longk
# kernels, the tf32 rungs and the dispatchers; times on long-K products (the grid's, held-out ones, small sides that
# best leaves to the skinny kernel); the four sanitizers over longk_tf32 and best_tf32.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
AB=docs/experiments/2026-12-06-write-streams/ab.py
gunzip -c .gitcarry/s20/lib_new.so.gz > matmul_opt/libmatmul.so
step tests timeout 240 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_long_k_tensor.py \
    tests/test_gpu_long_k_kernel.py tests/test_gpu_precision.py tests/test_gpu_kernels.py \
    -k "longk or tf32 or precision or dispatcher or nan or maximum" > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
LONG=300x40x100000,128x100x200000,500x500x60000,200x300x20000,64x64x1048576,32x32x300000,16x16x500000
HELD=100x60x150000,256x48x80000,96x200x50000,48x48x400000,20x200x200000,150x150x100000,40x250x60000,70x70x700000
SMALL=12x100x100000,9x200x200000,10x60x300000,24x64x500000,9x9x2000000
K1=best,cublas_tf32,longk_tf32,wgmma_tf32,best_tf32
step times timeout 150 python3 $AB --shapes $LONG,$HELD,$SMALL --kernels $K1 --rounds 3 --repetitions 10 \
    --json $OUT/times.json > $OUT/times.txt 2>&1
cat $OUT/times.txt
step sanitize timeout 240 python3 -m tools.sanitize --kernels longk_tf32,best_tf32 --jobs 8 > $OUT/sanitize.txt 2>&1
tail -9 $OUT/sanitize.txt
