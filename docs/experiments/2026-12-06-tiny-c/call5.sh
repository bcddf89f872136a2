#!/usr/bin/env bash
# Device call 5 of this record (prepared, not run), from the branch tiny-c-next with .gitcarry/s28/lib_main.so.xz
# (main at e4a5758), lib_orient.so.xz (tiny-c-orient: a C of at most 4 x 4 taken the way round that lays X along L)
# and lib_next.so.xz (that, and spread-k kernels of at most 2 rows with 4 steps of loads in flight) carried:
#   1. lib_next: skinny's GPU tests (the new 2x1 and 1x3 shapes among them);
#   2. fixed_cost.py on C of at most 4 x 4 over a long K, the three libraries in alternating processes, 2 rounds;
#   3. the four sanitizers over skinny with lib_next (racecheck alone took 141 s in call 1).
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
for lib in main orient next; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s28/lib_$lib.so.xz /tmp/lib_$lib.so
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv,noheader | tee $OUT/gpu.txt
cp /tmp/lib_next.so matmul_opt/libmatmul.so
step tests timeout 120 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_shape_grid.py -k skinny \
    > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
for round in 1 2; do
    for lib in main orient next; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step tiny-$lib-$round timeout 60 python3 \
            docs/experiments/2026-12-06-one-launch/fixed_cost.py --calls 300 --kernels best,cublas \
            --shapes 1x1x1000000,1x1x262144,1x3x300000,4x4x1000000,2x1x500000,3x2x400000,3x1x1000000 \
            > $OUT/tiny-$lib-$round.log 2>&1
        cat $OUT/tiny-$lib-$round.log
    done
done
step sanitize timeout 240 python3 -m tools.sanitize --kernels skinny --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*-skinny.log $OUT/ 2>/dev/null
