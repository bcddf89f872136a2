#!/usr/bin/env bash
# Device call 4, at the commit that lands the lanes in quarter-warp pairs and the skinny kernel's unguarded interior
# along L (the library built here and carried): the whole test suite, and at the same time the four sanitizers
# over the kernels either change touches (skinny, pipelined, splitk, pairwise, warptile, tma, streamk and best, which
# forces every configuration); the same bits as main before them (.gitcarry/lib_main.so.gz) over the warp-tile
# kernels.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
L=$D/logs; mkdir -p $L/sanitizer
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call4-environment.txt
gunzip -c .gitcarry/lib_main.so.gz > /tmp/lib_main.so
step bits bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 100 python3 $D/same_bits.py write /tmp/tile-bits-before &&
    timeout 100 python3 $D/same_bits.py write /tmp/tile-bits-after &&
    python3 $D/same_bits.py compare /tmp/tile-bits-before /tmp/tile-bits-after > $L/call4-bits.txt 2>&1; tail -1 $L/call4-bits.txt"
( timeout 330 python3 -m tools.sanitize --kernels skinny,pipelined,splitk,pairwise,warptile,tma,streamk,best --jobs 8 --timeout 300 \
    > $L/call4-sanitize.log 2>&1; echo "sanitize rc=$?" >> $L/call4-sanitize.log ) &
step pytest bash -c "timeout 330 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $L/call4-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call4-pytest.log | head -20; tail -1 $L/call4-pytest.log"
wait
tail -25 $L/call4-sanitize.log
cp results/latest/sanitizer-*-*.log $L/sanitizer/ 2>/dev/null
tar czf $OUT/logs.tgz $L
