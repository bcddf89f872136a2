#!/usr/bin/env bash
# Device call 2: Nsight Compute on the longk kernel (stall reasons, shared-memory wavefronts per load, pipe use) at
# 32x32x300000 and 16x16x500000, and the probe's longk time on long-K shapes for the kernel as built and two variants
# (build/variants/: bk128, stages of 128 k in a ring of 4; two, a ring of 4 stages at two blocks per SM).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-long-k
L=$D/logs
mkdir -p $L
source tools/device_env.sh
METRICS=smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,smsp__inst_executed_op_ldgsts.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
for shape in "32 32 300000" "16 16 500000"; do
  f=$L/call2-ncu-${shape// /x}.txt
  timeout 90 ncu --clock-control none --kernel-name regex:longk --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --metrics $METRICS \
    python3 docs/experiments/2026-12-02-streaming/ncu_driver.py longk $shape > $f 2>&1
  grep -E "Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Issued Warp|Eligible|No Eligible|stalled|wavefronts|inst_executed|pipe_fma|dram__|bank_conflicts|gpu__time" $f | head -40
done
SHAPES="32x32x300000 16x16x500000 64x64x1048576 32x32x131072 16x16x131072 24x24x131072 1x1x1000000 5x7x200000 20x30x100000 64x16x300000"
step probe-main bash -c "timeout 60 python3 $D/probe.py --kernels longk skinny --shapes $SHAPES > $L/call2-probe-main.txt 2>&1; cat $L/call2-probe-main.txt"
cp matmul_opt/libmatmul.so /tmp/main.so
for v in bk128 two; do
  python3 -c "import lzma,shutil; shutil.copyfileobj(lzma.open('build/variants/$v.so.xz'), open('matmul_opt/libmatmul.so','wb'))"
  step probe-$v bash -c "timeout 60 python3 $D/probe.py --kernels longk --shapes $SHAPES > $L/call2-probe-$v.txt 2>&1; cat $L/call2-probe-$v.txt"
done
cp /tmp/main.so matmul_opt/libmatmul.so
cp -r $L $OUT/
