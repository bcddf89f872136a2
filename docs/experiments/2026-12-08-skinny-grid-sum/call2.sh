#!/usr/bin/env bash
# Device call 2 of this record (call 1 not run), from branch skinny-tiny: skinny-grid-sum with skinny-tiny-orientation
# merged (HEAD; its build is .gitcarry/s23/lib_tiny_both.so.xz, whose skinny kernels are the same machine code as
# skinny-grid-sum's), with .gitcarry/s20/lib_tiny.so.xz (the build of main) and, for asv, .gitcarry/repo.bundle
# (made on HEAD) and .whl:
#   1. with HEAD's library: the GPU tests of skinny, best and the grid, among them the test that skinny's slices
#      added up in a cooperative launch give the reduction's bits and the one over C of two sides of at most 8;
#   2. A/B in alternating processes (HEAD's first, then main's; two rounds, three rotated rounds in each process):
#      best, skinny and cuBLAS fp32 on long-K products over a tiny large side (the launches the slice sum changes),
#      on C of at most 8 x 8 that the staged mainloop took (both changes), and, as controls, on products whose
#      skinny slices a cluster adds up or that run in one slice (the same launch, but the kernels' code grows) and
#      tiny C whose way round does not change;
#   3. as CALL_LIMIT allows, skinny's four sanitizers;
#   4. if the tests passed and CALL_LIMIT allows, asv's Sgemm suite for HEAD;
#   5. as CALL_LIMIT allows, the shape grid with HEAD's library (best and cuBLAS fp32; two rounds, two halves);
# everything into one tarball, $OUT/sum.tgz, re-packed after each step.
LOG=/tmp/sum; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/sum.tgz -C /tmp sum -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/sum.tgz -C /tmp sum; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to .gitcarry/s20/lib_tiny.so.xz /tmp/lib_main.so
unxz_to .gitcarry/s23/lib_tiny_both.so.xz /tmp/lib_sum.so
cp /tmp/lib_sum.so matmul_opt/libmatmul.so
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    tests/test_gpu_long_k_kernel.py tests/test_gpu_shape_grid.py -k "skinny or best or grid" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log; pack
SHAPES=1x1x1000000,2x1x500000,3x2x400000,4x4x1000000,1x8x600000,8x5x1048576,6x3x777777,5x7x200000,2x40x300001
SHAPES+=,8x2x131072,6x2x131072,8x3x131072,8x6x131072,7x5x300001,8x7x50000
SHAPES+=,1x4096x4096,8x4096x4096,4096x16x4096,1x1500x9000,13x5120x13824,7000x5x3000,8x4x131072,8x8x300000,6x6x131072
for round in 1 2; do
    for lib in lib_sum lib_main; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 $AB --shapes $SHAPES \
            --kernels best,skinny,cublas --rounds 3 --repetitions 20 --json $LOG/ab-$lib-$round.json \
            > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt
    done
done; pack
LEFT=$((${CALL_LIMIT:-560} - SECONDS - 10))
fits 90 && step sanitize timeout $((LEFT < 150 ? LEFT : 150)) python3 -m tools.sanitize --kernels skinny --jobs 4 \
    > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-skinny.log $LOG/sanitizers/ 2>/dev/null
pack
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && fits 200; then
    step asv timeout 210 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
for half in 0 1; do
    GRID=$(python3 -c "from matmul_opt.shape_grid import GRID; print(','.join(s.name for s in GRID[$half::2]))")
    fits 60 && step "grid $half" timeout 60 python3 $AB --shapes "$GRID" --kernels best,cublas --rounds 2 \
        --repetitions 10 --json $LOG/grid$half.json > $LOG/grid$half.txt 2>&1
    tail -2 $LOG/grid$half.txt; pack
done
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
