#!/usr/bin/env bash
# Device call 2: bench.py in alternating processes, this build against the one before the
# change (carried gzipped as .gitcarry/lib_before.so.gz), on products whose Y has 8 to 24 rows, then the skinny
# tests.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; } > $L/call2-environment.txt
gunzip -c .gitcarry/lib_before.so.gz > /tmp/lib_before.so
# As run, the list broke after 16x4096x4096 (a newline inside the quotes), so the last four shapes were not timed.
SHAPES="9000x24x2000 5000x24x9000 20000x22x1500 4096x24x4096 24x8000x8000 13x5120x13824 16x6000x8000 16x4096x4096"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_before.so python3 docs/experiments/2026-12-04-bulk-mainloop/bench.py --label before\$round --shapes $SHAPES
    python3 docs/experiments/2026-12-04-bulk-mainloop/bench.py --label after\$round --shapes $SHAPES; done > $L/call2-ab.txt 2>&1; cat $L/call2-ab.txt"
step tests bash -c "timeout 200 python3 -m pytest tests/test_gpu_shape_grid.py -q -p no:cacheprovider -k skinny > $L/call2-pytest.log 2>&1; tail -3 $L/call2-pytest.log"
tar czf $OUT/logs.tgz $L
