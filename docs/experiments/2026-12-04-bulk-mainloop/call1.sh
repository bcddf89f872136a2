#!/usr/bin/env bash
# Device call 1: bench.py in alternating processes against the build before the change (carried gzipped as
# .gitcarry/lib_before.so.gz), the shape grid's report for best beside cuBLAS, then the test suite beside the four
# sanitizers over skinny.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; } > $L/call1-environment.txt
gunzip -c .gitcarry/lib_before.so.gz > /tmp/lib_before.so
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_before.so python3 $D/bench.py --label before\$round
    python3 $D/bench.py --label after\$round; done > $L/call1-ab.txt 2>&1; cat $L/call1-ab.txt"
step grid bash -c "timeout 200 python3 -m matmul_opt --kernels best cublas --sizes 1024 --accuracy-k --rest 0.2 --grid best --json $L/call1-grid.json > $L/call1-grid.txt 2>&1; grep -E 'best:' $L/call1-grid.txt"
step suite_and_sanitizers bash -c "
  (timeout 320 python3 -m pytest tests -q -p no:cacheprovider -x > $L/call1-pytest.log 2>&1; echo pytest rc=\$? >> $L/call1-pytest.log) &
  timeout 320 python3 -m tools.sanitize --kernels skinny --jobs 4 --timeout 300 > $L/call1-sanitize.txt 2>&1
  wait; tail -3 $L/call1-pytest.log; tail -8 $L/call1-sanitize.txt"
mkdir -p $L/sanitizer; cp results/latest/sanitizer-*.log $L/sanitizer/ 2>/dev/null
tar czf $OUT/logs.tgz $L
