#!/usr/bin/env bash
# Device call 3 of this record, from main (HEAD: its kernels are those of .gitcarry/s17/lib_main.so.xz), with
# .gitcarry/repo.bundle (made on main) and .whl. On an H200 first what issue 36 still needs there (the wide-stores
# record's call 3, not run for want of one): its report (ozaki_int8, wgmma_3xtf32, cuBLAS; rested and sustained),
# ozaki_int8's and the fp32-accurate class's GPU tests, asv's Sgemm suite for HEAD where they pass and ozaki_int8's
# four sanitizers; then, on any GPU, as CALL_LIMIT allows: the shape grid's 48 products with best, best_tf32,
# best_fp32_accurate, cuBLAS fp32 and cuBLAS TF32 (ab.py, one round of 10), and call2.sh's profiles (skinny's bulk
# kernel's machine code and stalls at 9000x24x2000, wgmma_tf32's at 10000x2000x100). Everything into $OUT/all.tgz,
# re-packed after each step.
LOG=/tmp/log3; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
pack() { tar czf $OUT/all.tgz -C /tmp log3 $(ls -d /tmp/log2 2>/dev/null | sed 's|/tmp/||') -C "$PWD" results/asv 2>/dev/null \
    || tar czf $OUT/all.tgz -C /tmp log3; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s17/lib_main.so.xz matmul_opt/libmatmul.so
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    step report36 timeout 60 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas \
        --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 --json $LOG/report36.json \
        > $LOG/report36.txt 2>&1
    grep -E "^(Device|4096|8192|16384)" $LOG/report36.txt; pack
    step tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py \
        tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py -k "ozaki or fp32_accurate" \
        > $LOG/tests.log 2>&1
    grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
    if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && fits 200; then
        step asv timeout 210 python3 -m asv run --python=same --set-commit-hash=$HEAD \
            --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
        tail -1 $LOG/asv.log; pack
    fi
    fits 45 && step sanitize timeout 45 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
    tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers
    cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/ 2>/dev/null; pack
fi
# The grid in two halves, each printed when it ends, so that a half that runs past the call's time leaves the other.
for half in 0 1; do
    SHAPES=$(python3 -c "from matmul_opt.shape_grid import GRID; print(','.join(s.name for s in GRID[$half::2]))")
    fits 100 && step "grid $half" timeout 100 python3 docs/experiments/2026-12-06-write-streams/ab.py --shapes "$SHAPES" \
        --kernels best,best_tf32,best_fp32_accurate,cublas,cublas_tf32 --rounds 1 --repetitions 10 \
        --json $LOG/grid$half.json > $LOG/grid$half.txt 2>&1
    tail -2 $LOG/grid$half.txt; pack
done
fits 150 && OUT=/tmp/out2 timeout $((${CALL_LIMIT:-560} - SECONDS)) bash docs/experiments/2026-12-07-column-passes/call2.sh > $LOG/call2.txt 2>&1
tail -5 $LOG/call2.txt
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
