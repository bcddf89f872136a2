#!/usr/bin/env bash
# Device call 1 of this record, from branch ozaki-ragged-words (HEAD), with .gitcarry/s17/lib_main.so.xz (main's
# build) and lib_ragged.so.xz (HEAD's: tools/cubin_compare finds the rebuild kernels and ozaki_int8's product kernels
# changed, 491 of 497 kernels the same):
#   1. with lib_ragged: ozaki_int8's GPU tests; the column-passes record's same_bits_long_k.py of both libraries,
#      compared; ozaki_int8's four sanitizers;
#   2. A/B: ozaki_int8, best_fp32_accurate and cuBLAS fp32 at 4096^3, 4097^3 and 3001x2999x4097 with both libraries
#      in alternating processes, two rounds; Nsight Compute's kernel times at 4097^3 with both;
#   3. as CALL_LIMIT allows, with lib_main: the shape grid's 48 products with best, best_tf32, best_fp32_accurate,
#      cuBLAS fp32 and cuBLAS TF32 (ab.py, one round of 10), in two halves;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log1; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
BITS=docs/experiments/2026-12-07-column-passes/same_bits_long_k.py
TIMES=docs/experiments/2026-12-07-column-passes/ncu_times.py
OZ=docs/experiments/2026-12-06-ozaki-check/probe.py
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/all.tgz -C /tmp log1; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-300} ]; }
git rev-parse HEAD | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
for lib in lib_main lib_ragged; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s17/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_ragged.so matmul_opt/libmatmul.so
step tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_gpu_kernels.py \
    tests/test_gpu_hardening.py -k "ozaki" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
for lib in lib_main lib_ragged; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "same bits $lib" timeout 60 python3 $BITS write /tmp/bits-$lib \
        > $LOG/bits-$lib.txt 2>&1
done
python3 $BITS compare /tmp/bits-lib_main /tmp/bits-lib_ragged > $LOG/bits-compare.txt 2>&1
tail -3 $LOG/bits-compare.txt; pack
for round in 1 2; do
    for lib in lib_main lib_ragged; do
        step "ab $lib $round" timeout 40 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 $AB \
            --shapes 4096x4096x4096,4097x4097x4097,3001x2999x4097 --kernels ozaki_int8,best_fp32_accurate,cublas \
            --rounds 1 --repetitions 10 > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt
    done
done; pack
for lib in lib_main lib_ragged; do
    fits 20 && MATMUL_OPT_LIBRARY=/tmp/$lib.so step "times $lib" timeout 40 ncu --metrics \
        gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed python3 $OZ 4097x4097x4097 \
        > $LOG/times-$lib.txt 2>&1
    python3 $TIMES $LOG/times-$lib.txt | grep -E "ozaki|rebuild"
done; pack
fits 45 && step sanitize timeout 45 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/ 2>/dev/null
pack
cp /tmp/lib_main.so matmul_opt/libmatmul.so
for half in 0 1; do
    SHAPES=$(python3 -c "from matmul_opt.shape_grid import GRID; print(','.join(s.name for s in GRID[$half::2]))")
    fits 90 && step "grid $half" timeout 90 python3 $AB --shapes "$SHAPES" \
        --kernels best,best_tf32,best_fp32_accurate,cublas,cublas_tf32 --rounds 1 --repetitions 10 \
        --json $LOG/grid$half.json > $LOG/grid$half.txt 2>&1
    tail -2 $LOG/grid$half.txt; pack
done
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
