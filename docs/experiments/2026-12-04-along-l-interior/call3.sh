#!/usr/bin/env bash
# Device call 3 (from branch along-l-interior): as call 2, with the unguarded turns at 8 rows only (one step per
# turn): call 2 found them 8-16% faster at 5-8 rows and 2-4% slower at 1-3 rows. Call 1 found the unguarded interior 11-17% faster at 5, 7 and 8 rows
# and 27% slower at 1x1500x9000 and 8x3000x3000, where lanes of one warp left the unguarded turns apart (a lane's own
# l and k decided) and ran the two loops one after the other. Now the decision is warp-uniform. Against main
# (.gitcarry/lib_main.so.gz): the same bits, bench.py on row-major decode shapes (call 1's and more where L or K is
# not a multiple of the block's reach) in alternating processes, three rounds, and the skinny tests.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-along-l-interior
B=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD 2>/dev/null || cat COMMIT)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; } > $L/call3-environment.txt
gunzip -c .gitcarry/lib_main.so.gz > /tmp/lib_main.so
BITS="8x4096x4096 5x3000x5000 1x1500x9000 3x4096x4001 7x2049x3001 16x4096x4096 4x4096x4096 2x5000x3000 8x3000x3000 6x1001x7003"
step bits bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/same_bits.py write /tmp/bits-main $BITS &&
    python3 $B/same_bits.py write /tmp/bits-one $BITS &&
    python3 $B/same_bits.py compare /tmp/bits-main /tmp/bits-one > $L/call3-bits.txt 2>&1; tail -1 $L/call3-bits.txt"
SHAPES="1x4096x4096 1x1500x9000 2x4096x4096 3x4000x6000 4x4096x4096 5x4096x4096 8x4096x4096 8x3000x3000 7x2048x8192 16x4096x4096 6x1001x7003 3x11008x4096 8x14336x4096"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/bench.py --label main\$round --shapes $SHAPES
    python3 $B/bench.py --label interior\$round --shapes $SHAPES; done > $L/call3-ab.txt 2>&1; tail -3 $L/call3-ab.txt"
step tests bash -c "timeout 100 python3 -m pytest tests/test_gpu_shape_grid.py -q -p no:cacheprovider -k skinny > $L/call3-pytest.log 2>&1; tail -1 $L/call3-pytest.log"
