#!/usr/bin/env bash
# Device call 1, run from main's checkout with the branch carried in .gitcarry/s5: rs.tgz (`git archive
# tf32x3-register | gzip`) and its library lib_rs.so.gz (built here, gzipped). Carry .gitcarry/s5. The rung's GPU
# tests (its own file, the kernels' common tests, the SASS check), the four sanitizers over it beside them, then
# speed.py (the grid and held-out shapes against wgmma_3xtf32, best_fp32_accurate and cuBLAS fp32, and the error
# over K).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-3xtf32-register-split
mkdir -p /tmp/rs && tar xzf .gitcarry/s5/rs.tgz -C /tmp/rs
gunzip -c .gitcarry/s5/lib_rs.so.gz > /tmp/rs/matmul_opt/libmatmul.so
cd /tmp/rs
L=$PWD/$D/logs; mkdir -p $L
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call1-environment.txt
(timeout 260 python3 -m tools.sanitize --tools memcheck,racecheck,initcheck,synccheck \
    --kernels wgmma_3xtf32_register_split --jobs 4 --timeout 250 > $L/call1-sanitize.txt 2>&1) &
step tests timeout 240 python3 -m pytest -q tests/test_gpu_register_split.py tests/test_sass.py \
    tests/test_gpu_kernels.py -k "register_split" > $L/call1-pytest.log 2>&1
tail -5 $L/call1-pytest.log
step sanitizers wait
mkdir -p $L/sanitizer && cp results/latest/sanitizer-*-wgmma_3xtf32_register_split.log $L/sanitizer/ 2>/dev/null
grep "==\|clean" $L/call1-sanitize.txt
step speed timeout 270 python3 $D/speed.py --rounds 3 --json $L/call1-speed.json > $L/call1-speed.txt 2>&1
cat $L/call1-speed.txt
tar czf $OUT/logs.tgz -C /tmp/rs $D/logs
