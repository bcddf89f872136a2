#!/usr/bin/env bash
# Device call 1 of this record, from main, with .gitcarry/s18/lib_aligned.so.xz (a build whose kernels' machine code
# is main's at 82cb94b: tools/cubin_compare 497 of 497):
#   1. the long-K products whose C has both sides at most 8 (best's long-K rule gives them to skinny, since
#      C's smaller side is at most kLongkMinSmallSide) with best, longk, skinny and cuBLAS fp32, three rotated rounds
#      in one process; and, as controls, the tuner's long_k_thin shapes S x 32 and 32 x S around that bound, where
#      skinny streams the operand that C's 32 side leaves large;
#   2. Nsight Compute's kernel times and launches for best and longk at 1x1x1000000 and 5x7x200000;
# everything into one tarball, $OUT/tiny.tgz, re-packed after each step.
LOG=/tmp/tiny; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
unxz_to .gitcarry/s18/lib_aligned.so.xz /tmp/lib_tiny.so
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
for shape in 1x1x1000000 5x7x200000; do
    for kernel in best longk; do
        fits 40 && step "ncu $kernel $shape" timeout 40 ncu --metrics \
            gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed python3 $HERE/probe.py $kernel \
            $shape > $LOG/ncu-$kernel-$shape.txt 2>&1
        python3 $TIMES $LOG/ncu-$kernel-$shape.txt
    done
done; pack
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
