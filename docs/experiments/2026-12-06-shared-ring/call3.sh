#!/usr/bin/env bash
# Device call 3 of this record, from the branch's working tree with two libraries carried in .gitcarry/s22: main and
# branch (call 2's tiles, chosen by the cost rule, and best_tf32's bound on C's outputs). The whole GPU tier with the
# branch's library; longk_tf32, wgmma_tf32, best_tf32 and cuBLAS TF32 on the long-K products of calls 1 and 2 and on
# held-out ones, each library in alternating processes (two rounds each); the four sanitizers over longk_tf32 and
# best_tf32.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
step() { local name=$1; shift; local t0=$SECONDS; "$@"; echo "[$name: rc=$? in $((SECONDS - t0)) s]"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
AB=docs/experiments/2026-12-06-write-streams/ab.py
LIBS="main branch"
for lib in $LIBS; do gunzip -c .gitcarry/s22/lib_$lib.so.gz > /tmp/lib_$lib.so; done
cp /tmp/lib_branch.so matmul_opt/libmatmul.so
step tests timeout 200 python3 -m pytest -q -rfEs -p no:cacheprovider -m gpu tests > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
LONG=300x40x100000,128x100x200000,500x500x60000,200x300x20000,64x64x1048576,32x32x300000,16x16x500000
HELD=100x60x150000,256x48x80000,96x200x50000,48x48x400000,20x200x200000,150x150x100000,40x250x60000,70x70x700000
SMALL=12x100x100000,9x200x200000,10x60x300000,24x64x500000,9x9x2000000
BOUND=200x200x100000,260x260x60000,384x384x50000,400x400x30000,640x640x20000,130x130x30000,180x200x30000
FRESH=77x90x400000,140x170x80000,110x300x40000,33x180x250000,350x120x60000,190x190x150000,45x130x300000
FRESH=$FRESH,15x400x150000,143x143x40000,144x143x40000,90x65x500000,230x30x200000
for round in 1 2; do
    for lib in $LIBS; do
        MATMUL_OPT_LIBRARY=/tmp/lib_$lib.so step "times-$lib-$round" timeout 120 python3 $AB \
            --shapes $LONG,$HELD,$SMALL,$BOUND,$FRESH --kernels cublas_tf32,longk_tf32,wgmma_tf32,best_tf32 \
            --rounds 1 --repetitions 10 --json $OUT/times-$lib-$round.json > $OUT/times-$lib-$round.txt 2>&1
    done
done
cat $OUT/times-branch-2.txt
step sanitize timeout 220 python3 -m tools.sanitize --kernels longk_tf32,best_tf32 --jobs 8 > $OUT/sanitize.txt 2>&1
tail -9 $OUT/sanitize.txt
