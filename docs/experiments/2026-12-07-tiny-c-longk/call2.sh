#!/usr/bin/env bash
# Device call 2 of this record, from branch tiny-c-landing (HEAD: best's tiny-C rule with the bounds the call-1
# sweep set, kLongkTinyMaxSide 8 and kLongkTinyMaxKPerSm 993; its build is .gitcarry/s20/lib_tiny.so.xz), with
# .gitcarry/s18/lib_aligned.so.xz (a build of main's kernels and of main's best, whose choices the branch changes only
# on a tiny C; tools/cubin_compare 497 of 497 the same machine code), and, for asv, .gitcarry/repo.bundle (made on
# HEAD) and .whl:
#   1. with HEAD's library: the GPU tests of best, longk and the grid;
#   2. A/B in alternating processes (main's first, then HEAD's; two rounds): best, longk, skinny and cuBLAS fp32 on
#      tiny C within the K-per-SM bound (the route moves to longk), past it (the route stays skinny's), and on the
#      tuner's S x 32 controls;
#   3. if the tests passed and CALL_LIMIT allows, asv's Sgemm suite for HEAD;
#   4. as CALL_LIMIT allows, the shape grid with HEAD's library: best, best_tf32, best_fp32_accurate and cuBLAS fp32
#      and TF32, two rounds of 10, in two halves;
#   5. as CALL_LIMIT allows, the fp32-accurate kernels on the grid's four products of at least 10^10 FLOPs under
#      2.0x cuBLAS fp32 (ozaki-aligned-rows' call 2, step 2);
# everything into one tarball, $OUT/tiny2.tgz, re-packed after each step.
LOG=/tmp/tiny2; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/tiny2.tgz -C /tmp tiny2 -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/tiny2.tgz -C /tmp tiny2; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to .gitcarry/s18/lib_aligned.so.xz /tmp/lib_main.so
unxz_to .gitcarry/s20/lib_tiny.so.xz /tmp/lib_tiny.so
cp /tmp/lib_tiny.so matmul_opt/libmatmul.so
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_long_k_kernel.py \
    tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py tests/test_gpu_precision.py -k "longk or best or grid" \
    > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
SHAPES=1x1x20000,2x2x50000,7x7x65536,3x5x100000,1x7x90000,6x6x120000,8x3x30000,5x1x131000
SHAPES+=,1x1x1000000,5x7x200000,8x8x300000,4x4x1000000,8x5x1048576,6x3x777777
SHAPES+=,4x32x131072,8x32x131072,32x8x131072
for round in 1 2; do
    for lib in lib_main lib_tiny; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 $AB --shapes $SHAPES \
            --kernels best,longk,skinny,cublas --rounds 1 --repetitions 20 --json $LOG/ab-$lib-$round.json \
            > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt
    done
done; pack
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && fits 200; then
    step asv timeout 210 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
for half in 0 1; do
    GRID=$(python3 -c "from matmul_opt.shape_grid import GRID; print(','.join(s.name for s in GRID[$half::2]))")
    fits 60 && step "grid $half" timeout 60 python3 $AB --shapes "$GRID" \
        --kernels best,best_tf32,best_fp32_accurate,cublas,cublas_tf32 --rounds 2 --repetitions 10 \
        --json $LOG/grid$half.json > $LOG/grid$half.txt 2>&1
    tail -2 $LOG/grid$half.txt; pack
done
fits 60 && step "fp32-accurate kernels" timeout 60 python3 $AB \
    --shapes 200x5120x13824,512x13824x5120,300x28672x4096,6145x3073x515 \
    --kernels ozaki_int8,wgmma_3xtf32,wgmma_3xtf32_register_split,best_fp32_accurate,cublas --rounds 2 \
    --repetitions 10 --json $LOG/fp32-accurate.json > $LOG/fp32-accurate.txt 2>&1
grep -v '^\[' $LOG/fp32-accurate.txt; pack
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
