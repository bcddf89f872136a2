#!/usr/bin/env bash
# Device call 1, run from main's checkout with the branch carried in .gitcarry/s5: rs.tgz (`git archive
# tf32x3-register | gzip`), its library lib_rs.so.gz and main's lib_main.so.gz (built here, gzipped). Carry
# .gitcarry/s5. The rung's GPU tests (its own file, the kernels' common tests, the SASS check), the four sanitizers
# over it beside them, then speed.py (the grid and held-out shapes against wgmma_3xtf32, best_fp32_accurate and
# cuBLAS fp32, and the error over K), the first call of a fresh process with main's library and the branch's, and
# the tuner's precision sweep.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-3xtf32-register-split
mkdir -p /tmp/rs && tar xzf .gitcarry/s5/rs.tgz -C /tmp/rs
gunzip -c .gitcarry/s5/lib_rs.so.gz > /tmp/rs/matmul_opt/libmatmul.so
gunzip -c .gitcarry/s5/lib_main.so.gz > /tmp/lib_main.so
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
step speed timeout 220 python3 $D/speed.py --rounds 3 --json $L/call1-speed.json > $L/call1-speed.txt 2>&1
cat $L/call1-speed.txt
# The first call of a fresh process (the library loads every kernel at its first launch), main's library against
# the branch's, alternating, 4 rounds.
step first bash -c 'for round in 1 2 3 4; do for lib in /tmp/lib_main.so matmul_opt/libmatmul.so; do
    MATMUL_OPT_LIBRARY=$lib timeout 60 python3 -c "import time, numpy as np, matmul_opt
A = np.random.default_rng(0).uniform(-1, 1, (64, 64)).astype(np.float32)
t = time.perf_counter(); matmul_opt.run(\"best\", A, A); first = time.perf_counter() - t
t = time.perf_counter(); matmul_opt.run(\"best\", A, A); second = time.perf_counter() - t
print(\"$lib first %.1f ms second %.2f ms\" % (1e3 * first, 1e3 * second))"; done; done' > $L/call1-first-call.txt 2>&1
cat $L/call1-first-call.txt
# The tuner's precision sweep anew with the branch's kernels (wgmma_tf32's small sides, the register split): the
# precision table it writes goes into the logs.
step tune bash -c "timeout 70 python3 -m matmul_opt.tune --from-json results/latest/tune-h200.json --remeasure precision \
    --json $L/call1-tune.json --write > $L/call1-tune.txt 2> $L/call1-tune.err; cp cuda/kernels/precision_table.h $L/"
grep "inline constexpr" $L/precision_table.h
tar czf $OUT/logs.tgz -C /tmp/rs $D/logs
