#!/usr/bin/env bash
# Device call 1: the bulk mainloop with Y's slice copied in Y's stored order, against the library of 316ada3
# (build/variants/old.so.xz): probe.py in alternating processes, Nsight Compute on two bulk products with each
# library, longk's tutorial profile, and the whole test suite with the new library.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-bulk-y
L=$D/logs
mkdir -p $L
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD) + working tree"; date -u; } > $L/call1-environment.txt
python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('build/variants/old.so.xz'), open('/tmp/old.so','wb'))"
NEW=$PWD/matmul_opt/libmatmul.so
for round in 1 2; do
    for lib in old new; do
        so=$NEW; [ $lib = old ] && so=/tmp/old.so
        step probe-$lib-$round bash -c "MATMUL_OPT_LIBRARY=$so timeout 100 python3 $D/probe.py --kernels skinny --rounds 1 --label '$lib round $round' >> $L/call1-probe-$lib.txt 2>&1"
    done
    cp -r $L $OUT/
done
METRICS='regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$'
METRICS+=',regex:^l1tex__data_pipe_lsu_wavefronts_mem_shared_op_(ld|st)\.sum$,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum'
for shape in "17 8000 8000" "9000 24 2000"; do
    for lib in old new; do
        so=$NEW; [ $lib = old ] && so=/tmp/old.so
        name=$(echo $shape | tr ' ' x)
        step ncu-$lib-$name bash -c "MATMUL_OPT_LIBRARY=$so timeout 60 ncu --clock-control none --profile-from-start off --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats --metrics '$METRICS' python3 docs/tutorial/ncu/one_product.py skinny $shape > $L/call1-ncu-$lib-$name.txt 2>&1; grep -E 'skinny|Duration|DRAM Throughput|Issue Slots Busy|Eligible Warps|No Eligible|Registers Per|Achieved Occ' $L/call1-ncu-$lib-$name.txt | head -12"
    done
done
cp -r $L $OUT/
step ncu-longk bash -c "OUT=$OUT bash docs/tutorial/ncu/profile_rungs.sh longk > $L/call1-ncu-longk-run.txt 2>&1; tail -2 $L/call1-ncu-longk-run.txt"
cp -r $L $OUT/
step pytest bash -c "timeout 220 python3 -m pytest tests -q -rfEs -p no:cacheprovider -x > $L/call1-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call1-pytest.log | head; tail -1 $L/call1-pytest.log"
cp -r $L $OUT/
