#!/usr/bin/env bash
# Device call 2 of this record, from branch ozaki-overlap (commit NEW), with .gitcarry/s8/lib_main.so.xz (main,
# 323b4ff), lib_c1.so.xz (call 1's lib_new: the residue passes before the host's wait, the row survey's 8 lines at
# once in groups of at least 16 lines), lib_c2.so.xz (the branch: and the column survey's transposed lane sums, at
# most 64 groups), .gitcarry/repo.bundle and .whl; the same steps as call 1 with lib_c2 in lib_new's place and lib_c1
# in lib_survey's, and two more A/B rounds of three non-cubes alone (5000x3000x7001 varied 2425-3302 us in call 1).
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
NEW=$(git rev-parse HEAD)
R=docs/experiments/2026-12-07-ozaki-overlap
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
echo "NEW $NEW" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $LOG/gpu.txt
for lib in lib_main lib_c1 lib_c2; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s8/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_c2.so matmul_opt/libmatmul.so
MATMUL_OPT_LIBRARY=/tmp/lib_c2.so step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
    -k "ozaki or fp32_accurate" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
PASSED=; grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && PASSED=1
pack
step sanitize timeout 90 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -6 $LOG/sanitize.log; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/ 2>/dev/null; pack
SHAPES=512x512x512,1024x1024x1024,1025x1023x1021,2048x2048x2048,4096x4096x4096,8192x8192x8192
SHAPES+=,16384x16384x16384,5000x3000x7001,4096x1024x4096
ab_round() {
    for lib in "$@"; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
            --rounds 1 --repetitions 10 --json $LOG/ab-$lib-$round.json > $LOG/ab-$lib-$round.txt 2>&1
    done
}
fits 30 && round=1 ab_round lib_main lib_c1 lib_c2 && cat $LOG/ab-*-1.txt
fits 30 && round=2 ab_round lib_c2 lib_main lib_c1
fits 30 && round=3 ab_round lib_c1 lib_c2 lib_main; pack
fits 50 && MATMUL_OPT_LIBRARY=/tmp/lib_c2.so step report timeout 60 python3 -m matmul_opt --kernels ozaki_int8 \
    wgmma_3xtf32 cublas --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --accuracy-k --verify-size 256 \
    > $LOG/report-new.txt 2>&1; tail -25 $LOG/report-new.txt; pack
for lib in lib_main lib_c2; do
    fits 40 && MATMUL_OPT_LIBRARY=/tmp/$lib.so step "ncu $lib" timeout 40 ncu \
        --kernel-name regex:'survey|norms|scaling|k_products|residues|ozaki_int8|rebuild|fixup' \
        --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-06-ozaki-check/probe.py \
        1024x1024x1024 4096x4096x4096 > $LOG/ncu-$lib.txt 2>&1
done; pack
fits 30 && round=4 ab_round lib_main lib_c2 lib_c1
fits 30 && round=5 ab_round lib_c2 lib_c1 lib_main; pack
SHAPES=5000x3000x7001,3001x2999x5003,4096x1024x4096
fits 30 && round=6 ab_round lib_main lib_c1 lib_c2
fits 30 && round=7 ab_round lib_c2 lib_main lib_c1; pack
[ -n "$PASSED" ] && fits 160 && step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$NEW \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
tail -3 $LOG/asv.log 2>/dev/null
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
