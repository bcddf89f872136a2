#!/usr/bin/env bash
# Device call 1 of this record, from branch skinny-streamk (HEAD), with .gitcarry/s16/lib_rows.so.xz (main's library:
# the same machine code as main's build) and lib_shares.so.xz (HEAD's), .gitcarry/repo.bundle (made on the branch)
# and .whl:
#   1. with lib_shares: the GPU tests of skinny, best and the shape grid; shares_products.py alone and under the four
#      sanitizers (at once); bulk_bits.py against main's library (plans without shares: the same bits);
#   2. A/B: best, skinny and cuBLAS fp32 with both libraries in alternating processes, two rounds;
#   3. asv's grid suite for HEAD where the tests and bits pass, as CALL_LIMIT allows;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log5; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
HERE=docs/experiments/2026-12-07-bulk-shares
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/all.tgz -C /tmp log5 -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log5; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"; }
unxz .gitcarry/s16/lib_rows.so.xz /tmp/lib_main.so
unxz .gitcarry/s16/lib_shares.so.xz /tmp/lib_shares.so
cp /tmp/lib_shares.so matmul_opt/libmatmul.so
step tests timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    tests/test_gpu_kernels.py -k "skinny or best or grid" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
step products timeout 30 python3 $HERE/shares_products.py > $LOG/products.txt 2>&1; tail -1 $LOG/products.txt
for tool in memcheck racecheck initcheck synccheck; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 86 python3 $HERE/shares_products.py \
        > $LOG/sanitizer-$tool.log 2>&1 &
done; wait
for tool in memcheck racecheck initcheck synccheck; do
    echo "$tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $LOG/sanitizer-$tool.log | tail -1) $(tail -1 $LOG/sanitizer-$tool.log)"
done
for lib in lib_main lib_shares; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "bits $lib" timeout 60 python3 $HERE/bulk_bits.py write /tmp/bits-$lib \
        > $LOG/bits-$lib.txt 2>&1
done
python3 $HERE/bulk_bits.py compare /tmp/bits-lib_main /tmp/bits-lib_shares > $LOG/bits-compare.txt 2>&1
bits=$?; tail -1 $LOG/bits-compare.txt; pack
SHAPES=9000x24x2000,20x10000x3000,13x5120x13824,11x14336x2500,10000x12x6000,5000x20x3000,7001x21x1500
SHAPES+=,24x9000x3000,30x6000x5000,6000x17x4000,16x20000x2000,17x8000x8000,4x12000x16384,6x6000x5000,3x11008x4096
for round in 1 2; do
    for lib in lib_main lib_shares; do
        MATMUL_OPT_LIBRARY=/tmp/$lib.so timeout 60 python3 $AB --kernels best,skinny,cublas --rounds 1 \
            --repetitions 20 --shapes $SHAPES --json $LOG/ab-$lib-$round.json > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt | sed "s/^/$lib r$round /"
    done
done; pack
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && [ $bits = 0 ] && fits 240; then
    step asv timeout 280 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_grid' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
