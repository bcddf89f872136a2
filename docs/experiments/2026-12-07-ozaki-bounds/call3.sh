#!/usr/bin/env bash
# Device call 3 of this record (for the next session's device time), from branch ozaki-bounds (HEAD), with
# .gitcarry/s14/lib_bounds.so.xz (the branch's library with main merged, built here: its kernels are main's at
# 843dd3e, whose survey kernels no GPU has run, its table the bound on the operands' intensity and K),
# .gitcarry/repo.bundle (made on the branch, with main) and .whl: the fp32-accurate class's, ozaki_int8's and the
# tuner's GPU tests, ozaki_int8's four sanitizers,
# asv's Sgemm suite (kernel times) for HEAD, and the report of best_fp32_accurate beside ozaki_int8, wgmma_3xtf32 and
# cuBLAS SGEMM at call 1's untuned products, sustained at 7000^3 and 10000x10000x2500, as the call's limit allows
# (CALL_LIMIT seconds), then issue 36's report (4096^3 to 16384^3, rested and sustained); one tarball, $OUT/all.tgz.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-400} ]; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
source tools/device_env.sh
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s14/lib_bounds.so.xz matmul_opt/libmatmul.so
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py tests/test_gpu_ozaki.py \
    tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_tune.py \
    -k "ozaki or fp32_accurate or by_precision or precision or tune" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/; pack
step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=$HEAD \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
tail -1 $LOG/asv.log; pack
fits 60 && step report timeout 60 python3 -m matmul_opt --kernels best_fp32_accurate ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 5000x3000x7001 2500x6000x3500 7000x7000x7000 10000x10000x2500 3500x3500x3500 --accuracy-k \
    --sustained-sizes 7000x7000x7000 10000x10000x2500 --verify-size 256 --json $LOG/report.json > $LOG/report.txt 2>&1
grep -E "^[0-9]+x" $LOG/report.txt; pack
fits 50 && step report36 timeout 50 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 --json $LOG/report36.json > $LOG/report36.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report36.txt
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
