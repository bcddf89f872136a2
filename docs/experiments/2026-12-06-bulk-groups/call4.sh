#!/usr/bin/env bash
# Device call 4 of this record: run from main's checkout with .gitcarry/s14/lib_new2.so.gz (the landed code, built
# here), .gitcarry/repo.bundle (main's head) and .whl carried. The four sanitizers over skinny at the landed code
# (call 2 ran them before the narrow sides' rule); on an H200, asv's grid suite at main's head too, for the H200's
# history and the gate against its last grid results (5668212):
#   python3 -m tools.regressions 56682120 HEAD --results-dir results/asv --exact --threshold 0.03
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
gunzip -c .gitcarry/s14/lib_new2.so.gz > matmul_opt/libmatmul.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/gpu.txt
step sanitize timeout 120 python3 -m tools.sanitize --kernels skinny --jobs 4 > $OUT/sanitize.txt 2>&1
tail -5 $OUT/sanitize.txt
cp results/latest/sanitizer-*-skinny.log $OUT/
if grep -q H200 $OUT/gpu.txt; then
    M=$(python3 -m benchmarks.machine)
    step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) --machine $M \
        --bench 'bench_grid.GridSgemm.track_kernel_ms' > $OUT/asv.log 2>&1
    tail -3 $OUT/asv.log
fi
