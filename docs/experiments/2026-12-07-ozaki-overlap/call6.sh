#!/usr/bin/env bash
# Device call 6 of this record, from branch ozaki-one-survey (commit NEW), with .gitcarry/s11/lib_main.so.xz (main's
# kernels: call 3's lib_new) and lib_new.so.xz (the branch: the survey keeps each line's sum of squares in pieces,
# the scaling check adds them for the scaling's bound, no norms pass): with lib_new ozaki_int8's GPU tests and the
# four sanitizers, then two A/B rounds, the report, and Nsight Compute's kernel times at 1024^3 and 4096^3, as the
# call's limit allows (CALL_LIMIT seconds; no asv: the session's device time does not allow it); everything into
# one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD"
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
pack() { tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee $LOG/gpu.txt
for lib in lib_main lib_new; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s11/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_new.so matmul_opt/libmatmul.so
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
    -k "ozaki or fp32_accurate" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/ 2>/dev/null; pack
SHAPES=512x512x512,1024x1024x1024,1025x1023x1021,2048x2048x2048,4096x4096x4096,8192x8192x8192
SHAPES+=,16384x16384x16384,5000x3000x7001,4096x1024x4096
ab_round() {
    for lib in "$@"; do
        step "ab $lib $round" timeout 40 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
            --rounds 1 --repetitions 10 --json $LOG/ab-$lib-$round.json > $LOG/ab-$lib-$round.txt 2>&1
    done
}
fits 15 && round=1 ab_round lib_main lib_new
fits 15 && round=2 ab_round lib_new lib_main; pack
fits 45 && step report timeout 45 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 > $LOG/report-new.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report-new.txt; pack
fits 20 && step ncu timeout 20 ncu --kernel-name regex:'survey|norms|scaling|k_products|residues|ozaki_int8|rebuild|fixup' \
    --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-06-ozaki-check/probe.py \
    1024x1024x1024 4096x4096x4096 > $LOG/ncu-lib_new.txt 2>&1
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
