#!/usr/bin/env bash
# Device call 2 of this record: run from the checkout with .gitcarry/s13 (lib_main.so.gz: main's library at ae809ae;
# lib_new2.so.gz: shortk's blocks keeping their panel over strided strips, the next strip staged while the current
# one is multiplied, with skinny's bulk cluster sums) carried. The two libraries' short-K times in alternating
# processes; the GPU tests of shortk; the sanitizers over shortk, and the two that call 1 left unrun over skinny.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
D=docs/experiments/2026-12-06-write-streams
gunzip -c .gitcarry/s13/lib_new2.so.gz > matmul_opt/libmatmul.so
gunzip -c .gitcarry/s13/lib_main.so.gz > /tmp/lib_main.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
SHORT=4096x4096x16,5000x3000x1,7777x4444x8,1000x3000x3,3000x5000x12,20000x700x16,1500x1500x5,6000x6000x2
SHORT+=,333x20000x16,65536x256x16,3072x3072x16,6144x6144x16,6144x6144x8,3072x3072x12
for i in 1; do
    for lib in main new2; do
        L=/tmp/lib_$lib.so && [ $lib = new2 ] && L=$PWD/matmul_opt/libmatmul.so
        step short-$lib-$i env MATMUL_OPT_LIBRARY=$L timeout 60 python3 $D/ab.py --shapes $SHORT \
            --kernels best,shortk,cublas --rounds 2 --json $OUT/ab-$lib-$i.json > $OUT/ab-$lib-$i.txt 2>&1
    done
done
step tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_short_k.py \
    tests/test_gpu_kernels.py tests/test_gpu_shape_grid.py -k "shortk or short_k or short-k" > $OUT/tests.log 2>&1
tail -2 $OUT/tests.log
step sanitize-skinny timeout 110 python3 -m tools.sanitize --kernels skinny --tools synccheck,initcheck --jobs 2 \
    > $OUT/sanitize-skinny.txt 2>&1 &
step sanitize-shortk timeout 110 python3 -m tools.sanitize --kernels shortk --jobs 4 > $OUT/sanitize-shortk.txt 2>&1
wait
cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >> $OUT/gpu.txt
