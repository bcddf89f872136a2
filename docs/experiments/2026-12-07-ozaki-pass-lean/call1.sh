#!/usr/bin/env bash
# Device call 1 of this record, from branch ozaki-pass-lean (HEAD; branch ozaki-bounds, BOUNDS, lies under it), with
# .gitcarry/s14/lib_bounds.so.xz (ozaki-bounds' library: main's passes, the fp32-accurate class's new bounds) and
# lib_pass.so.xz (this branch's tip: the residue pass's float scaling, the rebuild's row scale, the column survey's
# single squares), .gitcarry/repo.bundle (made on the branch) and .whl. It also does ozaki-bounds' call 3, whose
# machine never came:
#   1. with lib_pass: the GPU tests of ozaki_int8, the fp32-accurate class and the tuner, and ozaki_int8's four
#      sanitizers;
#   2. same_bits.py with both libraries: every product the same bit for bit;
#   3. asv's Sgemm suite for HEAD where 1 and 2 pass; else steps 1 and asv with lib_bounds, for BOUNDS;
#   4. issue 36's report with lib_pass (lib_bounds where 3 fell back);
#   5. Nsight Compute's kernel times at 16384^3 with both, an A/B round of ozaki_int8 with both (each in its own
#      process), and ozaki-bounds' report at its untuned products, as the call's limit allows (CALL_LIMIT seconds);
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
HERE=docs/experiments/2026-12-07-ozaki-pass-lean
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
HEAD=$(git rev-parse HEAD) BOUNDS=$(git rev-parse -q --verify ozaki-bounds || git rev-parse origin/ozaki-bounds)
echo "HEAD $HEAD BOUNDS $BOUNDS" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
for lib in lib_bounds lib_pass; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s14/$lib.so.xz /tmp/$lib.so
done
checks() {  # $1: the library's name; the tests and the sanitizers with it in the package's place
    cp /tmp/$1.so matmul_opt/libmatmul.so
    step "tests $1" timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py \
        tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py tests/test_tune.py \
        -k "ozaki or fp32_accurate or by_precision or precision or tune" > $LOG/tests-$1.log 2>&1
    grep -E '^(FAILED|ERROR)' $LOG/tests-$1.log | head -20; tail -1 $LOG/tests-$1.log
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
same_bits() {
    for lib in lib_bounds lib_pass; do
        MATMUL_OPT_LIBRARY=/tmp/$lib.so step "same bits $lib" timeout 60 python3 $HERE/same_bits.py write \
            /tmp/bits-$lib > $LOG/bits-$lib.txt 2>&1
    done
    python3 $HERE/same_bits.py compare /tmp/bits-lib_bounds /tmp/bits-lib_pass > $LOG/bits-compare.txt 2>&1
    local rc=$?; tail -3 $LOG/bits-compare.txt; pack; return $rc
}
if checks lib_pass && same_bits; then
    asv_for $HEAD; landed=lib_pass
elif checks lib_bounds; then
    asv_for $BOUNDS; landed=lib_bounds
fi
fits 50 && MATMUL_OPT_LIBRARY=/tmp/${landed:-lib_pass}.so step report36 timeout 50 python3 -m matmul_opt \
    --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 \
    --json $LOG/report36.json > $LOG/report36.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report36.txt; pack
for lib in lib_bounds lib_pass; do
    fits 30 && MATMUL_OPT_LIBRARY=/tmp/$lib.so step "ncu $lib" timeout 30 ncu \
        --kernel-name regex:'survey|scaling|k_products|residues|ozaki_int8|rebuild|fixup' \
        --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-06-ozaki-check/probe.py \
        16384x16384x16384 > $LOG/ncu-$lib.txt 2>&1
    grep -E '::|duration' $LOG/ncu-$lib.txt | paste - - | sed -E 's/\(.*duration.sum +us +/ /'
done; pack
SHAPES=1024x1024x1024,4096x4096x4096,8192x8192x8192,16384x16384x16384,5000x3000x7001
for lib in lib_bounds lib_pass; do
    fits 50 && step "ab $lib" timeout 50 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
        docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
        --rounds 1 --repetitions 10 --json $LOG/ab-$lib.json > $LOG/ab-$lib.txt 2>&1
done; pack
fits 60 && MATMUL_OPT_LIBRARY=/tmp/${landed:-lib_pass}.so step report-bounds timeout 60 python3 -m matmul_opt \
    --kernels best_fp32_accurate ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 5000x3000x7001 2500x6000x3500 7000x7000x7000 10000x10000x2500 3500x3500x3500 --accuracy-k \
    --sustained-sizes 7000x7000x7000 10000x10000x2500 --verify-size 256 --json $LOG/report.json > $LOG/report.txt 2>&1
grep -E "^[0-9]+x" $LOG/report.txt
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
