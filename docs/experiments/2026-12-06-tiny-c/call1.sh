#!/usr/bin/env bash
# Device call 1 of this record, from the branch tiny-c with .gitcarry/s27/lib_main.so.xz (main, 0c116bb),
# lib_branch.so.xz (the branch cluster-tile-sum) and lib_spread.so.xz (tiny-c: skinny's lanes take k spread out where
# X's rows hold one l-quad) carried:
#   1. cluster-tile-sum's cluster and cooperative GPU tests, and the four sanitizers over wgmma_tf32;
#   2. tiny-c's skinny tests and the four sanitizers over skinny;
#   3. fixed_cost.py (benchmark, host enqueue per call) for best (main, tiny-c) and cuBLAS on C of one element at
#      K = 16384 to 16000000 (the slope is the bandwidth, the intercept the fixed cost), and on tiny sides;
#   4. under ncu: skinny's kernel at 1x1x1000000 (the full set, main and tiny-c), and every kernel cuBLAS launches
#      there.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
unxz() {
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
unxz .gitcarry/s27/lib_main.so.xz /tmp/lib_main.so
unxz .gitcarry/s27/lib_branch.so.xz /tmp/lib_branch.so
cp /tmp/lib_branch.so matmul_opt/libmatmul.so
step tests timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py \
    -k "cluster or cooperative" > $OUT/tests-branch.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests-branch.log | head -20; tail -1 $OUT/tests-branch.log
step sanitize timeout 150 python3 -m tools.sanitize --kernels wgmma_tf32 --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
unxz .gitcarry/s27/lib_spread.so.xz /tmp/lib_spread.so
cp /tmp/lib_spread.so matmul_opt/libmatmul.so
step tests-spread timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py \
    -k "skinny" > $OUT/tests-spread.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests-spread.log | head -20; tail -1 $OUT/tests-spread.log
step sanitize-skinny timeout 200 python3 -m tools.sanitize --kernels skinny --jobs 4 > $OUT/sanitize-skinny.log 2>&1
tail -6 $OUT/sanitize-skinny.log; mkdir -p $OUT/skinny; cp results/latest/sanitizer-*.log $OUT/skinny/ 2>/dev/null
FC=docs/experiments/2026-12-06-one-launch/fixed_cost.py
for lib in main spread; do
    export MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so
    kernels=best; [ $lib = main ] && kernels=best,cublas
    step sweep-$lib timeout 120 python3 $FC --calls 500 --kernels $kernels \
        --shapes 1x1x16384,1x1x65536,1x1x262144,1x1x1000000,1x1x4000000,1x1x16000000 > $OUT/sweep-$lib.log 2>&1
    cat $OUT/sweep-$lib.log
    step sides-$lib timeout 90 python3 $FC --calls 500 --kernels $kernels \
        --shapes 2x1x500000,1x3x300000,4x4x1000000,1x7x700000,1x16x1000000 > $OUT/sides-$lib.log 2>&1
    cat $OUT/sides-$lib.log
    step ncu-skinny-$lib timeout 90 ncu --set full -k regex:skinny -s 1 -c 1 -o $OUT/skinny-$lib \
        python3 $FC --ncu --shapes 1x1x1000000 --kernels best > $OUT/ncu-skinny-$lib.log 2>&1
    ncu --import $OUT/skinny-$lib.ncu-rep --page details > $OUT/ncu-skinny-$lib.txt 2>&1
    grep -E "^  [a-z_]+<|Duration|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Achieved Occupancy" \
        $OUT/ncu-skinny-$lib.txt | head -12
done
unset MATMUL_OPT_LIBRARY
cp /tmp/lib_main.so matmul_opt/libmatmul.so
step ncu-cublas timeout 90 ncu --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,dram__bytes_read.sum \
    python3 $FC --ncu --shapes 1x1x1000000 --kernels cublas,best > $OUT/ncu-cublas.csv 2> $OUT/ncu-cublas.err
grep -v "^==" $OUT/ncu-cublas.csv | cut -d, -f5,7,12- | tail -40 | cut -c1-220
