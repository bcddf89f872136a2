#!/usr/bin/env bash
# Device call 3 of this record (for a later session), for an H200 only (it stops at once on any other GPU, which calls 1
# and 2 measured),
# from main (HEAD; kernels as call 2's: .gitcarry/s14/lib_survey.so.xz), with .gitcarry/repo.bundle (made on main)
# and .whl: issue 36's report (ozaki_int8, wgmma_3xtf32 and cuBLAS SGEMM at 4096^3, 8192^3, 16384^3, rested and
# after 3 s of the same product), ozaki_int8's GPU tests and four sanitizers, asv's grid suite (kernel times: issues
# 32 and 33) and asv's Sgemm suite, as the call's limit allows (CALL_LIMIT seconds); one tarball, $OUT/all.tgz.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-420} ]; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
grep -q H200 $LOG/gpu.txt || { echo "not an H200: stopped"; pack; exit 0; }
source tools/device_env.sh
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s14/lib_survey.so.xz matmul_opt/libmatmul.so
step report timeout 50 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 --json $LOG/report.json > $LOG/report.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report.txt; pack
step "tests ozaki" timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
    -k "ozaki or fp32_accurate" > $LOG/tests-ozaki.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests-ozaki.log | head -20; tail -1 $LOG/tests-ozaki.log
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/; pack
MACHINE=$(python3 -m benchmarks.machine)
fits 120 && step asv-grid timeout $((${CALL_LIMIT:-420} - SECONDS - 5)) python3 -m asv run --python=same \
    --set-commit-hash=$HEAD --machine $MACHINE --bench 'bench_grid.GridSgemm.track_kernel_ms' > $LOG/asv-grid.log 2>&1
tail -1 $LOG/asv-grid.log; pack
fits 150 && step asv timeout $((${CALL_LIMIT:-420} - SECONDS - 5)) python3 -m asv run --python=same \
    --set-commit-hash=$HEAD --machine $MACHINE --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
