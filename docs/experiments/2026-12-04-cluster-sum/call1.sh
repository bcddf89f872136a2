#!/usr/bin/env bash
# Device call 1, run from main's checkout with the branch carried: .gitcarry/s3/cs.tgz (`git archive cluster-sum-2
# | gzip`) and its library .gitcarry/s3/lib_cs.so.gz (built here, gzipped); the huge-pages record's call 10 needs
# .gitcarry/s3/before.tgz and after.tgz (its header says how) and main's library. Carry matmul_opt/libmatmul.so and
# .gitcarry/s3. The GPU tests of best's configurations and of the cluster sum, with the four sanitizers over splitk
# and memcheck over best (whose driver forces every tile at 3 slices) beside them; then the sweeps (sweep.py
# configs and best) and the huge-pages record's call 10.
export OUT=${OUT:-/tmp/out}
R=$PWD
D=docs/experiments/2026-12-04-cluster-sum
L=$R/$D/logs; mkdir -p $L
mkdir -p /tmp/cs && tar xzf .gitcarry/s3/cs.tgz -C /tmp/cs && gunzip -c .gitcarry/s3/lib_cs.so.gz > /tmp/cs/matmul_opt/libmatmul.so
cd /tmp/cs
source tools/device_env.sh
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/call1-environment.txt
# The sanitizers (correctness, not timing) beside the tests; the sweeps after both.
(timeout 200 python3 -m tools.sanitize --tools memcheck,racecheck,initcheck,synccheck --kernels splitk --jobs 4 \
    --timeout 180 > $L/call1-sanitize.txt 2>&1; timeout 120 python3 -m tools.sanitize --tools memcheck --kernels best --jobs 2 \
    --timeout 110 >> $L/call1-sanitize.txt 2>&1) &
step tests timeout 150 python3 -m pytest -q -x tests/test_gpu_kernels.py -k "cluster or every_tile or splitk or pipelined" \
    > $L/call1-pytest.log 2>&1
tail -3 $L/call1-pytest.log
step sanitizers wait
mkdir -p $L/sanitizer && cp results/latest/sanitizer-*-{splitk,best}.log $L/sanitizer/ 2>/dev/null
grep "==\|clean" $L/call1-sanitize.txt
step configs timeout 150 python3 $D/sweep.py configs > $L/call1-configs.txt 2>&1
step best timeout 110 python3 $D/sweep.py best > $L/call1-best.txt 2>&1
cd $R
bash docs/experiments/2026-12-04-huge-pages/call10.sh
tar czf $OUT/logs.tgz $D/logs docs/experiments/2026-12-04-huge-pages/logs/call10-patterns.txt
