#!/usr/bin/env bash
# Device call 1 of this record, from branch tiny-c-longk (its tuner), with .gitcarry/s18/lib_aligned.so.xz (a build
# whose kernels are main's at 7d82b4d and the branch's: tools/cubin_compare 497 of 497 the same):
#   1. the long-K products whose C has both sides at most 8 (best's long-K rule gives them to skinny, since
#      C's smaller side is at most kLongkMinSmallSide) with best, longk, skinny and cuBLAS fp32, three rotated rounds
#      in one process; and, as controls, the tuner's long_k_thin shapes S x 32 and 32 x S around that bound, where
#      skinny streams the operand that C's 32 side leaves large;
#   2. the tuner's long_k_tiny sweep (skinny against longk on every C of sides 1 to 8, forced through best), added
#      to the committed timings as measured on this GPU: the JSON from which `tune --from-json --write` sets
#      kLongkTinyMaxSide here;
#   3. Nsight Compute's kernel times and DRAM throughput for best and longk at 1x1x1000000 and 5x7x200000;
# everything into one tarball, $OUT/tiny.tgz, re-packed after each step.
LOG=/tmp/tiny; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('.gitcarry/s18/lib_aligned.so.xz'), open('/tmp/lib_tiny.so', 'wb'))"
export MATMUL_OPT_LIBRARY=/tmp/lib_tiny.so
AB=docs/experiments/2026-12-06-write-streams/ab.py
HERE=docs/experiments/2026-12-07-tiny-c-longk
TIMES=docs/experiments/2026-12-07-column-passes/ncu_times.py
pack() { tar czf $OUT/tiny.tgz -C /tmp tiny; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
TINY=1x1x1000000,2x1x500000,3x2x400000,4x4x1000000,5x7x200000,8x8x300000,1x8x600000,6x3x777777,7x7x65536
TINY+=,2x2x50000,1x1x20000,8x5x1048576
THIN=4x32x131072,8x32x131072,12x32x131072,32x6x131072,32x8x131072
step "tiny" timeout 90 python3 $AB --shapes $TINY --kernels best,longk,skinny,cublas --rounds 3 --repetitions 20 \
    --json $LOG/tiny.json > $LOG/tiny.txt 2>&1
grep -v '^\[' $LOG/tiny.txt; pack
fits 60 && step "thin" timeout 60 python3 $AB --shapes $THIN --kernels best,longk,skinny,cublas --rounds 3 \
    --repetitions 20 --json $LOG/thin.json > $LOG/thin.txt 2>&1
grep -v '^\[' $LOG/thin.txt; pack
fits 90 && step "tune long_k_tiny" timeout 90 python3 -m matmul_opt.tune --from-json results/latest/tune-h200.json \
    --remeasure long_k_tiny --other-gpu --json $LOG/tune.json > $LOG/tune.txt 2>&1
grep -B2 "kLongkTinyMaxSide =" $LOG/tune.txt; pack
for shape in 1x1x1000000 5x7x200000; do
    for kernel in best longk; do
        fits 40 && step "ncu $kernel $shape" timeout 40 ncu --metrics \
            gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed python3 $HERE/probe.py $kernel \
            $shape > $LOG/ncu-$kernel-$shape.txt 2>&1
        python3 $TIMES $LOG/ncu-$kernel-$shape.txt
    done
done; pack
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
