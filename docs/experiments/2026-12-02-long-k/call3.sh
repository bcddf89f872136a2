#!/usr/bin/env bash
# Device call 3: the longk kernel with a ring per warp (no block barrier in the mainloop): its GPU tests, the probe
# on long-K shapes, and Nsight Compute at 32x32x300000 and 16x16x500000 (the metrics of call 2).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-02-long-k
L=$D/logs
mkdir -p $L
source tools/device_env.sh
step tests bash -c "timeout 100 python3 -m pytest tests/test_gpu_long_k_kernel.py -q -rfEs -p no:cacheprovider > $L/call3-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call3-pytest.log | head; tail -1 $L/call3-pytest.log"
step probe bash -c "timeout 200 python3 $D/probe.py --kernels longk skinny best cublas > $L/call3-probe.txt 2>&1; cat $L/call3-probe.txt"
METRICS=$(sed -n 's/^METRICS=//p' $D/call2.sh)
for shape in "32 32 300000" "16 16 500000"; do
  f=$L/call3-ncu-${shape// /x}.txt
  timeout 90 ncu --clock-control none --kernel-name regex:longk --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --metrics $METRICS \
    python3 docs/experiments/2026-12-02-streaming/ncu_driver.py longk $shape > $f 2>&1
  grep -E "Duration|DRAM Throughput|Issued Warp|Eligible Warps|stalled_(short|wait|barrier|long|mio|dispatch)|wavefronts|inst_executed|pipe_fma" $f | head -24
done
cp -r $L $OUT/
