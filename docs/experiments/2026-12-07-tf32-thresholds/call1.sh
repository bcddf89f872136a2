#!/usr/bin/env bash
# Device call 1 of this record, from branch tf32-thresholds (HEAD; its build is
# .gitcarry/s19/lib_tf32_thresholds.so.xz), with .gitcarry/s18/lib_aligned.so.xz (a build of main's kernels, whose
# machine code the branch's shares: tools/cubin_compare 497 of 497), and, for asv, .gitcarry/repo.bundle (made on
# HEAD) and .whl:
#   1. with HEAD's library: the TF32 dispatcher's GPU tests;
#   2. A/B in alternating processes (main's first, then HEAD's; two rounds): best_tf32, wgmma_tf32, best and cuBLAS
#      TF32 and fp32 on the products whose intensities lie between the old thresholds and the new (two grid shapes,
#      seven nobody tuned to) and on two just outside (22x8000x4000 below the new, 40x4096x4096 past the old);
#   3. if the tests passed and CALL_LIMIT allows, asv's Sgemm suite for HEAD;
#   4. as CALL_LIMIT allows, the shape grid with HEAD's library (best_tf32 and cuBLAS TF32; two rounds);
# everything into one tarball, $OUT/tf32.tgz, re-packed after each step.
LOG=/tmp/tf32; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/tf32.tgz -C /tmp tf32 -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/tf32.tgz -C /tmp tf32; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"; }
unxz_to .gitcarry/s18/lib_aligned.so.xz /tmp/lib_main.so
unxz_to .gitcarry/s19/lib_tf32_thresholds.so.xz /tmp/lib_tf32.so
cp /tmp/lib_tf32.so matmul_opt/libmatmul.so
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_precision.py \
    tests/test_gpu_kernels.py -k "best_tf32 or matmul_picks" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
SHAPES=32x4096x4096,9000x24x2000,24x5000x6000,6000x26x3000,28x3000x7000,4096x4096x24,5000x3000x28,7000x30x1500
SHAPES+=,3000x3000x26,22x8000x4000,40x4096x4096
for round in 1 2; do
    for lib in lib_main lib_tf32; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 $AB --shapes $SHAPES \
            --kernels best_tf32,wgmma_tf32,best,cublas_tf32,cublas --rounds 1 --repetitions 10 \
            --json $LOG/ab-$lib-$round.json > $LOG/ab-$lib-$round.txt 2>&1
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
    fits 60 && step "grid $half" timeout 60 python3 $AB --shapes "$GRID" --kernels best_tf32,cublas_tf32,cublas \
        --rounds 2 --repetitions 10 --json $LOG/grid$half.json > $LOG/grid$half.txt 2>&1
    tail -2 $LOG/grid$half.txt; pack
done
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
