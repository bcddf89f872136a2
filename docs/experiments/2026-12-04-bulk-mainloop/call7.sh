#!/usr/bin/env bash
# Device call 7: what lands from the branch, the staged mainloop's copies and the bulk mainloop's Y copy from kept
# addresses (without the fold's multiplication), against main before it (.gitcarry/lib_before.so.gz): the same bits,
# bench.py in alternating processes on both mainloops' shapes, the GPU test tier and the four sanitizers over skinny
# (BEFORE_SANITIZE: a command run before them).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
save() { tar czf $OUT/logs.tgz $L docs/experiments/2026-12-04-huge-pages/logs 2>/dev/null; }
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; } > $L/call7-environment.txt
gunzip -c .gitcarry/lib_before.so.gz > /tmp/lib_before.so
step bits bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_before.so python3 $D/same_bits.py write /tmp/bits-before &&
    python3 $D/same_bits.py write /tmp/bits-after && python3 $D/same_bits.py compare /tmp/bits-before /tmp/bits-after > $L/call7-bits.txt 2>&1; tail -1 $L/call7-bits.txt"
SHAPES="9000x24x2000 6000x20x7000 12000x18x3000 5000x24x9000 24x8000x8000 17x8000x8000 13x5120x13824 11x14336x2500 3x11008x4096 30000x12x2000 4096x16x4096 7000x5x3000 4096x8x8000"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_before.so python3 $D/bench.py --label before\$round --shapes $SHAPES
    python3 $D/bench.py --label after\$round --shapes $SHAPES; done > $L/call7-ab.txt 2>&1; tail -3 $L/call7-ab.txt"
save
step suite bash -c "timeout 240 python3 -m pytest tests -q -p no:cacheprovider > $L/call7-pytest.log 2>&1; tail -1 $L/call7-pytest.log"
save
[ -n "$BEFORE_SANITIZE" ] && bash -c "$BEFORE_SANITIZE"
step sanitize bash -c "timeout 200 python3 -m tools.sanitize --kernels skinny --jobs 4 --timeout 190 > $L/call7-sanitize.txt 2>&1; tail -6 $L/call7-sanitize.txt"
save
