#!/usr/bin/env bash
# Device call 1 of this record, from the branch tf32-cluster-slices with .gitcarry/s26/lib_main.so.xz (main at
# 418c218) and lib_branch.so.xz (the branch) carried:
#   1. the branch's GPU tests of wgmma_tf32 (its cluster sums among them);
#   2. A/B in alternating processes (ab.py, 2 rounds per library): cuBLAS TF32, wgmma_tf32 and best_tf32 on the
#      TF32 grid shapes below 0.95x cuBLAS TF32 and held-out shapes of their classes; the four sanitizers over
#      wgmma_tf32;
#   3. the whole GPU tier with the branch's library;
#   4. under ncu, the kernels wgmma_tf32 (main, branch) and cuBLAS TF32 launch on four shapes.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
unxz() {
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
unxz .gitcarry/s26/lib_main.so.xz /tmp/lib_main.so
unxz .gitcarry/s26/lib_branch.so.xz /tmp/lib_branch.so
cp /tmp/lib_branch.so matmul_opt/libmatmul.so
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_kernels.py -k "wgmma_tf32" \
    > $OUT/tests-wgmma.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests-wgmma.log | head -20; tail -1 $OUT/tests-wgmma.log
GRID=13x5120x13824,32x4096x4096,128x4096x4096,100x11008x4096,4096x64x4096,9000x24x2000,250x1500x3000,17x8000x8000
GRID+=,10000x2000x100,2048x12000x128,12000x1500x77,200x300x20000,500x500x60000,2048x4096x11008,300x28672x4096
HELD=48x6000x5000,96x3000x7000,200x8000x3000,5000x80x6000,160x2500x2500,8000x40x3000,8000x3000x96,6000x5000x50
HELD+=,384x14336x4096,1500x4096x11008
for round in 1 2; do
    for lib in main branch; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step ab-$lib-$round timeout 100 python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $GRID,$HELD \
            --kernels cublas_tf32,wgmma_tf32,best_tf32 \
            --rounds 1 --repetitions 10 --json $OUT/ab-$lib-$round.json > $OUT/ab-$lib-$round.log 2>&1
    done
done
tail -26 $OUT/ab-branch-2.log | cut -c1-200
step sanitize timeout 200 python3 -m tools.sanitize --kernels wgmma_tf32 --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*.log $OUT/ 2>/dev/null
step tier timeout 230 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tier.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tier.log | head -20; tail -1 $OUT/tier.log
for lib in main branch; do
    MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step ncu-$lib timeout 60 ncu --clock-control none --csv \
        --metrics gpu__time_duration.sum,launch__grid_size,dram__bytes_read.sum,dram__bytes_write.sum \
        python3 docs/experiments/2026-12-06-one-launch/fixed_cost.py --ncu \
        --shapes 128x4096x4096,4096x64x4096,250x1500x3000,100x11008x4096 --kernels wgmma_tf32,cublas_tf32 \
        > $OUT/ncu-$lib.csv 2> $OUT/ncu-$lib.err
done
