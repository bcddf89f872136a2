#!/usr/bin/env bash
# Device call 1, run from main's checkout with the branch carried in .gitcarry/s5: rs.tgz (`git archive
# tf32x3-register | gzip`, which holds tf32-narrow and the register-split rung), its library lib_rs.so.gz and main's
# library lib_main.so.gz (both built here, gzipped). Carry .gitcarry/s5. The GPU tests of wgmma_tf32's widths, paths and split tails (and the tf32 rungs', the SASS check's
# and the precision dispatchers'), the four sanitizers over wgmma_tf32 beside them; then speed.py, an A/B of main's
# library against the branch's over the asv suite's shapes (wgmma_tf32, best_tf32) in alternating processes. (The
# tuner's precision sweep with the branch's kernels runs in the 3xtf32-register-split record's call 1.)
export OUT=${OUT:-/tmp/out}
R=$PWD
D=docs/experiments/2026-12-04-tf32-small-side
mkdir -p /tmp/tn && tar xzf .gitcarry/s5/rs.tgz -C /tmp/tn
gunzip -c .gitcarry/s5/lib_rs.so.gz > /tmp/tn/matmul_opt/libmatmul.so
gunzip -c .gitcarry/s5/lib_main.so.gz > /tmp/lib_main.so
cd /tmp/tn
L=$PWD/$D/logs; mkdir -p $L
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call1-environment.txt
(timeout 230 python3 -m tools.sanitize --tools memcheck,racecheck,initcheck,synccheck --kernels wgmma_tf32 --jobs 4 \
    --timeout 220 > $L/call1-sanitize.txt 2>&1) &
step tests timeout 200 python3 -m pytest -q tests/test_gpu_kernels.py tests/test_sass.py tests/test_gpu_precision.py \
    -k "wgmma_tf32 or tf32_rungs or tensor_core or best_tf32" > $L/call1-pytest.log 2>&1
tail -5 $L/call1-pytest.log
step sanitizers wait
mkdir -p $L/sanitizer && cp results/latest/sanitizer-*-wgmma_tf32.log $L/sanitizer/ 2>/dev/null
grep "==\|clean" $L/call1-sanitize.txt
step speed timeout 200 python3 $D/speed.py --rounds 3 --json $L/call1-speed.json > $L/call1-speed.txt 2>&1
cat $L/call1-speed.txt
step ab timeout 90 python3 -m tools.ab_compare /tmp/lib_main.so matmul_opt/libmatmul.so --rounds 3 \
    --kernels wgmma_tf32,best_tf32 > $L/call1-ab.txt 2>&1
tail -20 $L/call1-ab.txt
tar czf $OUT/logs.tgz -C /tmp/tn $D/logs
