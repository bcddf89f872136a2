#!/usr/bin/env bash
# Device call 3: the bulk mainloop with Y in the slot order its copy reads along Y's rows, 20 rows of Y,
# against the library of 316ada3 (build/variants/old.so.xz): probe.py in alternating
# processes, memcheck, racecheck and synccheck of skinny, and the GPU tests of the skinny kernel and the shape grid.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-bulk-y
L=$OUT
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD) + working tree"; date -u; } > $L/call3-environment.txt
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('build/variants/old.so.xz'), open('/tmp/old.so','wb'))"
NEW=$PWD/matmul_opt/libmatmul.so
for round in 1 2; do
    for lib in old new; do
        so=$NEW; [ $lib = old ] && so=/tmp/old.so
        step probe-$lib-$round bash -c "MATMUL_OPT_LIBRARY=$so timeout 100 python3 $D/probe.py --kernels skinny --rounds 1 --label '$lib round $round' >> $L/call3-probe.txt 2>&1"
    done
done
step sanitize bash -c "timeout 230 python3 -m tools.sanitize --kernels skinny --tools memcheck,racecheck,synccheck > $L/call3-sanitize.log 2>&1; tail -4 $L/call3-sanitize.log"
for t in memcheck racecheck synccheck; do cp results/latest/sanitizer-$t.log $L/call3-sanitizer-$t.log; done
step pytest bash -c "timeout 200 python3 -m pytest tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py -q -rfEs -p no:cacheprovider -x > $L/call3-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call3-pytest.log | head; tail -1 $L/call3-pytest.log"
