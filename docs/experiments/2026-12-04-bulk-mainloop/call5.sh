#!/usr/bin/env bash
# Device call 5 (not run yet; from branch bulk-fold-mul): the bulk and staged mainloops with fewer instructions per tile
# against the build before it (carried gzipped as .gitcarry/lib_before.so.gz): the same bits (same_bits.py), bench.py
# in alternating processes, then the skinny tests.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; } > $L/call5-environment.txt
gunzip -c .gitcarry/lib_before.so.gz > /tmp/lib_before.so
step bits bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_before.so python3 $D/same_bits.py write /tmp/bits-before &&
    python3 $D/same_bits.py write /tmp/bits-after && python3 $D/same_bits.py compare /tmp/bits-before /tmp/bits-after > $L/call5-bits.txt 2>&1; tail -1 $L/call5-bits.txt"
SHAPES="9000x24x2000 5000x24x9000 24x8000x8000 17x8000x8000 13x5120x13824 11x14336x2500 3x11008x4096 30000x12x2000 4096x16x4096 7000x5x3000 4096x8x8000"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_before.so python3 $D/bench.py --label before\$round --shapes $SHAPES
    python3 $D/bench.py --label after\$round --shapes $SHAPES; done > $L/call5-ab.txt 2>&1; cat $L/call5-ab.txt"
step tests bash -c "timeout 100 python3 -m pytest tests/test_gpu_shape_grid.py -q -p no:cacheprovider -k skinny > $L/call5-pytest.log 2>&1; tail -1 $L/call5-pytest.log"
tar czf $OUT/logs.tgz $L
