#!/usr/bin/env bash
# Device call 2: the bulk mainloop with Y by bulk tensor copy where its rows are aligned, 20 rows of Y, and the
# wave-balanced slice count, against the library of 316ada3 (build/variants/old.so.xz): probe.py in alternating
# processes, Nsight Compute on two bulk products, and the GPU tests of the skinny kernel and the shape grid.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-bulk-y
L=$OUT
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD) + working tree"; date -u; } > $L/call2-environment.txt
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('build/variants/old.so.xz'), open('/tmp/old.so','wb'))"
NEW=$PWD/matmul_opt/libmatmul.so
for round in 1 2; do
    for lib in old new; do
        so=$NEW; [ $lib = old ] && so=/tmp/old.so
        step probe-$lib-$round bash -c "MATMUL_OPT_LIBRARY=$so timeout 100 python3 $D/probe.py --kernels skinny --rounds 1 --label '$lib round $round' >> $L/call2-probe.txt 2>&1"
    done
done
METRICS='regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$'
for shape in "17 8000 8000" "9000 24 2000" "13 5120 13824"; do
    name=$(echo $shape | tr ' ' x)
    step ncu-$name bash -c "timeout 60 ncu --clock-control none --profile-from-start off --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats --section LaunchStats --metrics '$METRICS' python3 docs/tutorial/ncu/one_product.py skinny $shape >> $L/call2-ncu.txt 2>&1"
done
step pytest bash -c "timeout 200 python3 -m pytest tests/test_gpu_shape_grid.py tests/test_gpu_kernels.py -q -rfEs -p no:cacheprovider -x > $L/call2-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call2-pytest.log | head; tail -1 $L/call2-pytest.log"
