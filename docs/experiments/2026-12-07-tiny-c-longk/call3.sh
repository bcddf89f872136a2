#!/usr/bin/env bash
# Device call 3 of this record, from branch tiny-c-landing, with the two builds of call 2 (.gitcarry/s18: main's,
# .gitcarry/s20: the branch's): call 2 found skinny and cuBLAS 20 to 40% slower on tiny C in both of the branch's
# processes than in main's (longk the same in all four), with the order of the kernels fixed (one round each). Here
# the branch's process runs first, each process runs three rotated rounds, and the two alternate twice: does the
# difference follow the library, the process, or the order?
LOG=/tmp/tiny3; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/tiny3.tgz -C /tmp tiny3; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to .gitcarry/s18/lib_aligned.so.xz /tmp/lib_main.so
unxz_to .gitcarry/s20/lib_tiny.so.xz /tmp/lib_tiny.so
SHAPES=1x1x20000,2x2x50000,1x7x90000,8x3x30000,7x7x65536,6x6x120000,1x1x1000000
for run in "lib_tiny 1" "lib_main 1" "lib_tiny 2" "lib_main 2"; do
    set -- $run
    step "ab $1 $2" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$1.so python3 $AB --shapes $SHAPES \
        --kernels best,longk,skinny,cublas --rounds 3 --repetitions 20 --json $LOG/ab-$1-$2.json > $LOG/ab-$1-$2.txt 2>&1
    grep -v '^\[' $LOG/ab-$1-$2.txt; pack
done
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
