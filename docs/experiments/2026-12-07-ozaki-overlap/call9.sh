#!/usr/bin/env bash
# Device call 9 of this record (for the next session's device time), from branch ozaki-residue-trim (commit NEW, its
# tip: branch ozaki-lean's kernels with the residue pass templated on the count of moduli), with
# .gitcarry/s11/lib_main.so.xz (main's kernels), .gitcarry/s12/lib_lean.so.xz (ozaki-lean's, which call 7 checked)
# and lib_trim.so.xz (the branch's), .gitcarry/repo.bundle (made on the branch) and .whl:
#   1. ozaki_int8's GPU tests (and the generic ones that take it) and the four sanitizers with lib_trim, and asv's
#      Sgemm suite (kernel times) for NEW where they pass; where they do not, the same with lib_lean for ozaki-lean's
#      tip (LEAN), whose kernels passed them in call 7 (its host code has the review's read-back change since);
#   2. A/B rounds of the three libraries over nine shapes, the report with lib_trim and lib_lean, and Nsight
#      Compute's kernel times at 4096^3, as the call's limit allows (CALL_LIMIT seconds);
# everything into one tarball, $OUT/all.tgz, re-packed after each step. Carry .gitcarry/s11/lib_main.so.xz (not all of
# s11), .gitcarry/s12, .gitcarry/repo.bundle and .whl: with the tracked files that is about 64 MB of the 64 MiB.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
NEW=$(git rev-parse HEAD) LEAN=$(git rev-parse -q --verify ozaki-lean || git rev-parse origin/ozaki-lean)
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
echo "NEW $NEW LEAN $LEAN" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee $LOG/gpu.txt
for xz in .gitcarry/s11/lib_main.so.xz .gitcarry/s12/lib_lean.so.xz .gitcarry/s12/lib_trim.so.xz; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        $xz /tmp/$(basename $xz .xz)
done
checks() {  # $1: the library's name; the tests and the sanitizers with it in the package's place
    cp /tmp/$1.so matmul_opt/libmatmul.so
    step "tests $1" timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider \
        tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
        -k "ozaki or fp32_accurate" > $LOG/tests-$1.log 2>&1
    grep -E '^(FAILED|ERROR)' $LOG/tests-$1.log | head -20; tail -2 $LOG/tests-$1.log
    step "sanitize $1" timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize-$1.log 2>&1
    tail -1 $LOG/sanitize-$1.log
    mkdir -p $LOG/sanitizers-$1; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers-$1/ 2>/dev/null; pack
    grep -q passed $LOG/tests-$1.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests-$1.log
}
asv_for() {  # $1: the commit that the library in the package's place was built from
    step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=$1 \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
}
if checks lib_trim; then asv_for $NEW; elif checks lib_lean; then asv_for $LEAN; fi
SHAPES=512x512x512,1024x1024x1024,1025x1023x1021,2048x2048x2048,4096x4096x4096,8192x8192x8192
SHAPES+=,16384x16384x16384,5000x3000x7001,4096x1024x4096
ab_round() {
    for lib in "$@"; do
        step "ab $lib $round" timeout 40 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
            --rounds 1 --repetitions 10 --json $LOG/ab-$lib-$round.json > $LOG/ab-$lib-$round.txt 2>&1
    done
}
fits 60 && round=1 ab_round lib_main lib_lean lib_trim
fits 60 && round=2 ab_round lib_trim lib_lean lib_main; pack
for lib in lib_trim lib_lean; do
    fits 45 && MATMUL_OPT_LIBRARY=/tmp/$lib.so step "report $lib" timeout 45 python3 -m matmul_opt \
        --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 --sustained-sizes 8192 16384 \
        --verify-size 256 > $LOG/report-$lib.txt 2>&1
    grep -E "^(4096|8192|16384)x" $LOG/report-$lib.txt; pack
done
for lib in lib_lean lib_trim; do
    fits 20 && MATMUL_OPT_LIBRARY=/tmp/$lib.so step "ncu $lib" timeout 20 ncu \
        --kernel-name regex:'survey|scaling|k_products|residues|ozaki_int8|rebuild|fixup' \
        --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-06-ozaki-check/probe.py \
        4096x4096x4096 > $LOG/ncu-$lib.txt 2>&1
done; pack
fits 60 && round=3 ab_round lib_lean lib_trim lib_main
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
