#!/usr/bin/env bash
# Device call 1 of the panel-fold record, run from main's checkout with .gitcarry/s9 (pf.tgz: `git archive
# panel-fold | gzip`; lib_pf.so.gz: its library) and .gitcarry/s8 (lib_next.so.gz: branch next's library, the
# baseline) carried. pairwise's GPU tests (its panels among them), the dispatcher's and the generic ones over
# pairwise, with the four sanitizers over pairwise beside them (the driver's panels take all three panel tiles); then
# the speed of best_fp32_accurate, pairwise and best beside cuBLAS fp32 on the grid's and held-out shapes whose choice
# changes, next's library against the branch's in alternating processes (3 rounds), and the errors there and on
# two panels past the rule's bound.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-05-panel-fold
mkdir -p /tmp/pf && tar xzf .gitcarry/s9/pf.tgz -C /tmp/pf
gunzip -c .gitcarry/s9/lib_pf.so.gz > /tmp/pf/matmul_opt/libmatmul.so
gunzip -c .gitcarry/s8/lib_next.so.gz > /tmp/lib_next.so
cd /tmp/pf
L=$PWD/$D/logs; mkdir -p $L
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call1-environment.txt
(timeout 260 python3 -m tools.sanitize --tools memcheck,racecheck,initcheck,synccheck --kernels pairwise --jobs 4 \
    --timeout 250 > $L/call1-sanitize.txt 2>&1) &
step tests timeout 250 python3 -m pytest -q -p no:cacheprovider tests/test_gpu_pairwise.py tests/test_gpu_precision.py \
    tests/test_gpu_kernels.py tests/test_gpu_arrays.py -k "pairwise or fp32_accurate or dispatcher" > $L/call1-pytest.log 2>&1
tail -3 $L/call1-pytest.log
step sanitizers wait
mkdir -p $L/sanitizer && cp results/latest/sanitizer-*-pairwise.log $L/sanitizer/ 2>/dev/null
grep "==\|clean" $L/call1-sanitize.txt
tar czf $OUT/logs.tgz $D/logs
SHAPES="32x4096x4096 128x4096x4096 100x11008x4096 4096x64x4096 200x5120x13824 129x4097x2000 8193x129x1000 \
48x7000x3000 5000x150x2500 4000x33x1000"
step speed bash -c "for round in 1 2 3; do for lib in /tmp/lib_next.so matmul_opt/libmatmul.so; do
    label=\$( [ \$lib = /tmp/lib_next.so ] && echo next || echo fold )
    MATMUL_OPT_LIBRARY=\$lib timeout 150 python3 docs/experiments/2026-12-03-pairwise/speed.py \$label \
        best_fp32_accurate,pairwise,best,cublas $SHAPES >> $L/call1-speed.jsonl 2>> $L/call1-speed.err; done; done"
for k in best_fp32_accurate pairwise; do
    python3 docs/experiments/2026-12-03-fold-and-narrow/ab_table.py $L/call1-speed.jsonl $k cublas next fold \
        > $L/call1-speed-$k.txt; cat $L/call1-speed-$k.txt; done
tar czf $OUT/logs.tgz $D/logs
# The ten shapes, and two panels past the rule's bound (65000 and 60600 outputs per SM), where best stays: whether
# cuBLAS cuts their K deeper than best too, which would argue for a wider bound.
step errors timeout 150 python3 $D/errors.py $SHAPES 300x28672x4096 200x40000x2000 > $L/call1-errors.txt 2>&1
cat $L/call1-errors.txt
tar czf $OUT/logs.tgz $D/logs
