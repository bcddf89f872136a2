#!/usr/bin/env bash
# Device call 4 of this record, from branch ozaki-residue-loads (commit NEW), with .gitcarry/s10/lib_main.so.xz
# (main at 29d22d3: call 3's lib_new, landed), lib_new.so.xz (the branch: the residue passes' loads before their
# stores, the rebuild's next words before its arithmetic), .gitcarry/repo.bundle and .whl; call 3's steps without
# its last A/B round:
#   1. ozaki_int8's GPU tests (and the generic ones that take it) with lib_new;
#   2. the four sanitizers over ozaki_int8 with lib_new;
#   3. A/B rounds: ab.py over ozaki_int8, each library in its own process, the order alternating, four rounds over
#      nine shapes and two over three non-cubes alone;
#   4. the report's rested and sustained rows of ozaki_int8, wgmma_3xtf32 and cuBLAS with lib_new;
#   5. Nsight Compute: every kernel's time in one ozaki_int8 product at 1024^3 and 4096^3, lib_main and lib_new;
#   6. asv's Sgemm suite (kernel times) for NEW with lib_new, where its tests passed;
# as the call's limit allows (CALL_LIMIT seconds); everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
NEW=$(git rev-parse HEAD)
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
echo "NEW $NEW" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $LOG/gpu.txt
for lib in lib_main lib_new; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s10/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_new.so matmul_opt/libmatmul.so
MATMUL_OPT_LIBRARY=/tmp/lib_new.so step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
    -k "ozaki or fp32_accurate" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
PASSED=; grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && PASSED=1
pack
step sanitize timeout 90 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -2 $LOG/sanitize.log; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/ 2>/dev/null; pack
ab_round() {
    for lib in "$@"; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
            --rounds 1 --repetitions 10 --json $LOG/ab-$lib-$round.json > $LOG/ab-$lib-$round.txt 2>&1
    done
}
SHAPES=5000x3000x7001,3001x2999x5003,4096x1024x4096
fits 30 && round=1 ab_round lib_main lib_new
fits 30 && round=2 ab_round lib_new lib_main; pack
SHAPES=512x512x512,1024x1024x1024,1025x1023x1021,2048x2048x2048,4096x4096x4096,8192x8192x8192
SHAPES+=,16384x16384x16384,5000x3000x7001,4096x1024x4096
fits 30 && round=3 ab_round lib_main lib_new
fits 30 && round=4 ab_round lib_new lib_main
fits 30 && round=5 ab_round lib_main lib_new; pack
fits 50 && MATMUL_OPT_LIBRARY=/tmp/lib_new.so step report timeout 60 python3 -m matmul_opt --kernels ozaki_int8 \
    wgmma_3xtf32 cublas --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --accuracy-k --verify-size 256 \
    > $LOG/report-new.txt 2>&1; grep -E "^(4096|8192|16384)x" $LOG/report-new.txt; pack
for lib in lib_main lib_new; do
    fits 40 && MATMUL_OPT_LIBRARY=/tmp/$lib.so step "ncu $lib" timeout 40 ncu \
        --kernel-name regex:'survey|norms|scaling|k_products|residues|ozaki_int8|rebuild|fixup' \
        --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-06-ozaki-check/probe.py \
        1024x1024x1024 4096x4096x4096 > $LOG/ncu-$lib.txt 2>&1
done; pack
fits 30 && round=6 ab_round lib_new lib_main
pack
[ -n "$PASSED" ] && fits 160 && step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$NEW \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
tail -1 $LOG/asv.log 2>/dev/null
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
