#!/usr/bin/env bash
# Device call 2 of this record, from branch ozaki-pass-lean (HEAD: the column survey's single squares alone on
# ozaki-bounds), with .gitcarry/s14/lib_bounds.so.xz (ozaki-bounds' library) and lib_survey.so.xz (HEAD's; its only
# kernel unlike lib_bounds' is survey_along_columns, whose machine code is call 1's lib_pass's),
# .gitcarry/repo.bundle (made on the branch) and .whl:
#   1. with lib_survey: ozaki_int8's and the fp32-accurate class's GPU tests, ozaki_int8's four sanitizers, and
#      same_bits.py against lib_bounds;
#   2. asv's Sgemm suite for HEAD where they pass;
#   3. Nsight Compute's kernel times at 16384^3 and issue 36's report with lib_survey, as CALL_LIMIT allows;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log2; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
HERE=docs/experiments/2026-12-07-ozaki-pass-lean
pack() { tar czf $OUT/all.tgz -C /tmp log2 -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log2; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-420} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
for lib in lib_bounds lib_survey; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s14/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_survey.so matmul_opt/libmatmul.so
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_gpu_kernels.py \
    tests/test_gpu_hardening.py tests/test_gpu_precision.py -k "ozaki or fp32_accurate" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/; pack
for lib in lib_bounds lib_survey; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "same bits $lib" timeout 60 python3 $HERE/same_bits.py write /tmp/bits-$lib \
        > $LOG/bits-$lib.txt 2>&1
done
python3 $HERE/same_bits.py compare /tmp/bits-lib_bounds /tmp/bits-lib_survey > $LOG/bits-compare.txt 2>&1
bits=$?; tail -1 $LOG/bits-compare.txt; pack
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && [ $bits = 0 ]; then
    step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
fits 25 && step ncu timeout 25 ncu --kernel-name regex:'survey|scaling|k_products|residues|ozaki_int8|rebuild|fixup' \
    --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-06-ozaki-check/probe.py 16384x16384x16384 \
    > $LOG/ncu.txt 2>&1
grep -E '::|duration' $LOG/ncu.txt | paste - - | sed -E 's/\(.*duration.sum +//'; pack
fits 50 && step report36 timeout 50 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 --json $LOG/report36.json > $LOG/report36.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report36.txt
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
