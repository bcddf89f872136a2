#!/usr/bin/env bash
# Device call 1 of this record, from branch longk-wide (HEAD; its build is .gitcarry/s18/lib_longk_wide.so.xz), with
# .gitcarry/s18/lib_aligned.so.xz (main's build at 2cd4bb2: its kernels are main's), .gitcarry/repo.bundle (made on
# HEAD) and .whl:
#   1. with HEAD's library: the long-K kernel tests, best's and the shape grid's GPU tests;
#   2. A/B in alternating processes (main's first, then HEAD's; two rounds): best, longk, splitk and cuBLAS fp32 on
#      the long-K products whose C's larger side is 33 to 64 (longk's new 64 x 64 tile; best took a split-K tile
#      there) and on three it leaves as they were;
#   3. as CALL_LIMIT allows, longk's four sanitizers; then, if the tests passed and CALL_LIMIT allows, asv's Sgemm
#      suite for HEAD;
#   4. as CALL_LIMIT allows, the shape grid with HEAD's library (best, best_tf32, best_fp32_accurate, cuBLAS fp32 and
#      TF32; two rounds);
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log1; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/all.tgz -C /tmp log1 -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log1; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"; }
unxz_to .gitcarry/s18/lib_aligned.so.xz /tmp/lib_main.so
unxz_to .gitcarry/s18/lib_longk_wide.so.xz /tmp/lib_wide.so
cp /tmp/lib_wide.so matmul_opt/libmatmul.so
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_long_k_kernel.py \
    tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py -k "longk or best or grid" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
SHAPES=64x64x1048576,48x48x500000,64x40x300000,33x64x200000,60x17x400000,64x64x20000
SHAPES+=,32x32x300000,300x40x100000,16x16x500000
for round in 1 2; do
    for lib in lib_main lib_wide; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 $AB --shapes $SHAPES \
            --kernels best,longk,splitk,cublas --rounds 1 --repetitions 10 --json $LOG/ab-$lib-$round.json \
            > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt
    done
done; pack
LEFT=$((${CALL_LIMIT:-560} - SECONDS - 10))
fits 60 && step sanitize timeout $((LEFT < 120 ? LEFT : 120)) python3 -m tools.sanitize --kernels longk --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-longk.log $LOG/sanitizers/ 2>/dev/null
pack
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && fits 200; then
    step asv timeout 210 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
for half in 0 1; do
    SHAPES=$(python3 -c "from matmul_opt.shape_grid import GRID; print(','.join(s.name for s in GRID[$half::2]))")
    fits 90 && step "grid $half" timeout 90 python3 $AB --shapes "$SHAPES" \
        --kernels best,best_tf32,best_fp32_accurate,cublas,cublas_tf32 --rounds 2 \
        --repetitions 10 --json $LOG/grid$half.json > $LOG/grid$half.txt 2>&1
    tail -2 $LOG/grid$half.txt; pack
done
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
