#!/usr/bin/env bash
# Device call 10 of this record, from main at the merge of ozaki-residue-trim (HEAD; its kernels are the branch tip's,
# built here as .gitcarry/s12/lib_trim.so.xz), with .gitcarry/repo.bundle (made on main) and .whl, meant for an H200:
#   1. ozaki_int8's GPU tests and its four sanitizers;
#   2. asv's Sgemm suite (kernel times) for HEAD;
#   3. the report of issue 36 (ozaki_int8, wgmma_3xtf32 and cuBLAS SGEMM at 4096^3, 8192^3, 16384^3, rested and
#      after 3 s of the same product);
#   4. asv's grid suite (issues 32 and 33: best, best_tf32, best_fp32_accurate beside cuBLAS fp32 and TF32, with each
#      shape's roofline);
#   5. the whole test suite, as the call's limit allows (CALL_LIMIT seconds);
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s12/lib_trim.so.xz matmul_opt/libmatmul.so
step "tests ozaki" timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
    -k "ozaki or fp32_accurate" > $LOG/tests-ozaki.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests-ozaki.log | head -20; tail -1 $LOG/tests-ozaki.log
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/; pack
MACHINE=$(python3 -m benchmarks.machine)
step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=$HEAD --machine $MACHINE \
    --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
tail -1 $LOG/asv.log; pack
fits 50 && step report timeout 50 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 --json $LOG/report.json > $LOG/report.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report.txt; pack
fits 150 && step asv-grid timeout 200 python3 -m asv run --python=same --set-commit-hash=$HEAD --machine $MACHINE \
    --bench 'bench_grid.GridSgemm' > $LOG/asv-grid.log 2>&1
tail -1 $LOG/asv-grid.log; pack
fits 60 && step "tests all" timeout $((${CALL_LIMIT:-540} - SECONDS - 10)) python3 -m pytest tests -q -rfEs \
    -p no:cacheprovider > $LOG/tests-all.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests-all.log | head -20; tail -1 $LOG/tests-all.log
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
