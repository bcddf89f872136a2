#!/usr/bin/env bash
# Device call 2 of this record, from main at the merge of tiny-c (the rows copy back to main's, the 32-wide gather
# tiles kept) with .gitcarry/s27/lib_main.so.xz (main before, 0c116bb), lib_new.so.xz (this commit's library),
# .gitcarry/repo.bundle and .whl carried:
#   1. GPU tests of the gather and the wgmma kernels with lib_new (call 1 ran the whole tier with the same code but
#      the rows copy, which is main's again here);
#   2. fixed_cost.py on C of at most 4 x 4 over a long K, main and new in alternating processes (2 rounds);
#   3. asv's grid suite for this commit;
#   4. the sanitizers call 1 left unrun: initcheck and synccheck over skinny, wgmma_tf32, wgmma_3xtf32, advanced
#      (racecheck over advanced is left out for the device time; call 1 ran it over the other three, whose op = T
#      paths take the same gathers).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
unxz() {
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"
}
unxz .gitcarry/s27/lib_main.so.xz /tmp/lib_main.so
unxz .gitcarry/s27/lib_new.so.xz /tmp/lib_new.so
cp /tmp/lib_new.so matmul_opt/libmatmul.so
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_native_ops.py \
    tests/test_gpu_kernels.py -k "rearranged or wgmma" > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
FC=docs/experiments/2026-12-06-one-launch/fixed_cost.py
for round in 1 2; do
    for lib in main new; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step tiny-$lib-$round timeout 60 python3 $FC --calls 500 \
            --kernels best,cublas --shapes 1x1x1000000,1x1x262144,4x4x1000000,2x1x500000,1x3x300000,3x2x400000 \
            > $OUT/tiny-$lib-$round.log 2>&1
        cat $OUT/tiny-$lib-$round.log
    done
done
step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
step sanitize-1 timeout 120 python3 -m tools.sanitize --tools initcheck,synccheck \
    --kernels skinny,wgmma_tf32,wgmma_3xtf32,advanced --jobs 4 > $OUT/sanitize-1.log 2>&1
tail -9 $OUT/sanitize-1.log; cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
