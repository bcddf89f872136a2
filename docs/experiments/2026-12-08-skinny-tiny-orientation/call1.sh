#!/usr/bin/env bash
# Device call 1 of this record, from branch skinny-tiny-orientation (HEAD; its build is
# .gitcarry/s22/lib_orient.so.xz), with .gitcarry/s20/lib_tiny.so.xz (the build of main) and, for asv,
# .gitcarry/repo.bundle (made on HEAD) and .whl:
#   1. with HEAD's library: the GPU tests of skinny (the new one over C of two sides of at most 8 in every op
#      combination among them) and of best on a tiny C over a long K;
#   2. A/B in alternating processes (HEAD's first, then main's; two rounds, three rotated rounds in each process):
#      best, skinny, longk and cuBLAS fp32 on C of at most 8 x 8 that the staged mainloop took (their route moves)
#      and, as controls, on tiny C that it did not take (the same route);
#   3. if the tests passed and CALL_LIMIT allows, asv's Sgemm suite for HEAD;
#   4. as CALL_LIMIT allows, skinny's four sanitizers;
# everything into one tarball, $OUT/orient.tgz, re-packed after each step.
LOG=/tmp/orient; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/orient.tgz -C /tmp orient -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/orient.tgz -C /tmp orient; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to .gitcarry/s20/lib_tiny.so.xz /tmp/lib_main.so
unxz_to .gitcarry/s22/lib_orient.so.xz /tmp/lib_orient.so
cp /tmp/lib_orient.so matmul_opt/libmatmul.so
step tests timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    tests/test_gpu_long_k_kernel.py -k "skinny or tiny" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
SHAPES=8x5x1048576,6x3x777777,8x2x131072,6x2x131072,8x3x131072,8x6x131072,7x5x300001,8x7x50000
SHAPES+=,8x4x131072,5x7x200000,8x8x300000,6x6x131072,1x1x1000000
for round in 1 2; do
    for lib in lib_orient lib_main; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 $AB --shapes $SHAPES \
            --kernels best,skinny,longk,cublas --rounds 3 --repetitions 20 --json $LOG/ab-$lib-$round.json \
            > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt
    done
done; pack
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && fits 200; then
    step asv timeout 210 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
LEFT=$((${CALL_LIMIT:-560} - SECONDS - 10))
fits 90 && step sanitize timeout $((LEFT < 150 ? LEFT : 150)) python3 -m tools.sanitize --kernels skinny --jobs 4 \
    > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-skinny.log $LOG/sanitizers/ 2>/dev/null
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
