#!/usr/bin/env bash
# Device call 6: the two halves of the bulk mainloop's change apart (call 5 measured them together): the fold that
# starts its sums with a multiplication (.gitcarry/staged_foldmul.so.gz) and Y's copy from kept addresses
# (.gitcarry/staged_ycopy.so.gz), each against the build with neither (matmul_opt/libmatmul.so; all three have the
# staged mainloop's copies from kept addresses), bench.py on the bulk mainloop's shapes in alternating processes.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
for v in foldmul ycopy; do gunzip -c .gitcarry/staged_$v.so.gz > /tmp/lib_$v.so; done
SHAPES="9000x24x2000 6000x20x7000 12000x18x3000 5000x24x9000 24x8000x8000 17x8000x8000 13x5120x13824 11x14336x2500"
step ab6 bash -c "for round in 1 2 3; do
    python3 $D/bench.py --label base\$round --shapes $SHAPES
    MATMUL_OPT_LIBRARY=/tmp/lib_foldmul.so python3 $D/bench.py --label foldmul\$round --shapes $SHAPES
    MATMUL_OPT_LIBRARY=/tmp/lib_ycopy.so python3 $D/bench.py --label ycopy\$round --shapes $SHAPES; done > $L/call6-ab.txt 2>&1; cat $L/call6-ab.txt"
