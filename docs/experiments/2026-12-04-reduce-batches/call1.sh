#!/usr/bin/env bash
# Device call 1: the reduction probe (before / after, probe.cu, built by build.sh off the device and carried as
# .gitcarry/reduce_probe), the shape grid's report for best beside cuBLAS, then the test suite beside the four
# sanitizers over splitk (its products run the split-K reduction).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-reduce-batches
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; } > $L/call1-environment.txt
step probe bash -c ".gitcarry/reduce_probe > $L/call1-probe.txt 2>&1; cat $L/call1-probe.txt"
step grid bash -c "timeout 200 python3 -m matmul_opt --kernels best cublas --sizes 1024 --accuracy-k --rest 0.2 --grid best --json $L/call1-grid.json > $L/call1-grid.txt 2>&1; grep -E 'best:|least|one-row|panel|long-k|projection|ragged|short-k' $L/call1-grid.txt | awk '{print \$1, \$2, \$4, \$5, \$7, \$8, \$9}'"
step suite_and_sanitizers bash -c "
  (timeout 300 python3 -m pytest tests -q -p no:cacheprovider -x > $L/call1-pytest.log 2>&1; echo pytest rc=\$? >> $L/call1-pytest.log) &
  timeout 200 python3 -m tools.sanitize --kernels splitk --jobs 4 --timeout 180 > $L/call1-sanitize.txt 2>&1
  wait; tail -3 $L/call1-pytest.log; tail -12 $L/call1-sanitize.txt"
mkdir -p $L/sanitizer; cp results/latest/sanitizer-*.log $L/sanitizer/ 2>/dev/null
tar czf $OUT/logs.tgz $L
