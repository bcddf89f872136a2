#!/usr/bin/env bash
# Device call 2 of this record, run from branch longk-wide before that record's call 1 (whose shape grid, with best_tf32
# and cuBLAS TF32, stands for this call's), with .gitcarry/s18/lib_aligned.so.xz (this record's build) and
# .gitcarry/s17/lib_main.so.xz (main's build before it):
#   1. ozaki_int8 at 4096^3 and 4096x4096x4224, main's library against HEAD's in four processes (HEAD's first, then
#      main's, twice), three rotated rounds each: call 1 had main's process first in every round and found HEAD's
#      2.5% slower at 4096^3, where the two run the same code paths (and Nsight Compute's kernel times differ by 1%);
#   2. the fp32-accurate kernels on the grid's products of at least 10^10 FLOPs that stay under 2.0x cuBLAS fp32
#      (ozaki_int8, wgmma_3xtf32, wgmma_3xtf32_register_split, best_fp32_accurate, cuBLAS fp32; two rounds);
# everything into one tarball, $OUT/call2.tgz, re-packed after each step.
LOG=/tmp/log2; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/call2.tgz -C /tmp log2; }
git rev-parse HEAD | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"; }
unxz_to .gitcarry/s17/lib_main.so.xz /tmp/lib_main.so
unxz_to .gitcarry/s18/lib_aligned.so.xz /tmp/lib_aligned.so
for run in "lib_aligned 1" "lib_main 1" "lib_aligned 2" "lib_main 2"; do
    set -- $run
    step "ab $1 $2" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$1.so python3 $AB --shapes 4096x4096x4096,4096x4096x4224 \
        --kernels ozaki_int8,cublas --rounds 3 --repetitions 10 --json $LOG/ab-$1-$2.json > $LOG/ab-$1-$2.txt 2>&1
    grep -v '^\[' $LOG/ab-$1-$2.txt
done; pack
step "fp32-accurate kernels" timeout 90 env MATMUL_OPT_LIBRARY=/tmp/lib_aligned.so python3 $AB \
    --shapes 200x5120x13824,512x13824x5120,300x28672x4096,6145x3073x515 \
    --kernels ozaki_int8,wgmma_3xtf32,wgmma_3xtf32_register_split,best_fp32_accurate,cublas --rounds 2 \
    --repetitions 10 --json $LOG/fp32-accurate.json > $LOG/fp32-accurate.txt 2>&1
grep -v '^\[' $LOG/fp32-accurate.txt; pack
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
