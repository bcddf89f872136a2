#!/usr/bin/env bash
# Device call 1 (from branch along-l-interior; not run yet): the register mainloop along L with its interior turns
# unguarded (this branch, matmul_opt/libmatmul.so) and with two steps per interior turn at 8 rows too (branch
# along-l-interior-two, .gitcarry/lib_two.so.gz), against main (.gitcarry/lib_main.so.gz): the same bits, bench.py
# on row-major decode shapes in alternating processes, three rounds, and the skinny tests.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-along-l-interior
B=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; } > $L/call1-environment.txt
for v in main two; do gunzip -c .gitcarry/lib_$v.so.gz > /tmp/lib_$v.so; done
BITS="8x4096x4096 5x3000x5000 1x1500x9000 3x4096x4001 7x2049x3001 16x4096x4096 4x4096x4096 2x5000x3000"
step bits bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/same_bits.py write /tmp/bits-main $BITS &&
    python3 $B/same_bits.py write /tmp/bits-one $BITS && MATMUL_OPT_LIBRARY=/tmp/lib_two.so python3 $B/same_bits.py write /tmp/bits-two $BITS &&
    { python3 $B/same_bits.py compare /tmp/bits-main /tmp/bits-one; python3 $B/same_bits.py compare /tmp/bits-main /tmp/bits-two; } > $L/call1-bits.txt 2>&1; grep differ $L/call1-bits.txt"
SHAPES="1x4096x4096 1x1500x9000 2x4096x4096 3x4000x6000 4x4096x4096 5x4096x4096 8x4096x4096 8x3000x3000 7x2048x8192 16x4096x4096"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/bench.py --label main\$round --shapes $SHAPES
    python3 $B/bench.py --label interior\$round --shapes $SHAPES
    MATMUL_OPT_LIBRARY=/tmp/lib_two.so python3 $B/bench.py --label two\$round --shapes $SHAPES; done > $L/call1-ab.txt 2>&1; cat $L/call1-ab.txt"
step tests bash -c "timeout 100 python3 -m pytest tests/test_gpu_shape_grid.py -q -p no:cacheprovider -k skinny > $L/call1-pytest.log 2>&1; tail -1 $L/call1-pytest.log"
tar czf $OUT/logs.tgz $L
