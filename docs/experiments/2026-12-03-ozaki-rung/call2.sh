#!/usr/bin/env bash
# Device call 2 of the ozaki_int8 rung (the rung as call 1 ran it): each pass's time under Nsight Compute at 4096³
# and 8192³, the host-spare record's spare.py (the same call), and the errors of best_fp32_accurate and ozaki_int8
# against cuBLAS fp32's over the shape grid and 256 x K x 256 (the pairwise record's accuracy.py).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-ozaki-rung
source tools/device_env.sh >/dev/null 2>&1
link_library
mkdir -p $D/logs
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__registers_per_thread \
    python3 $D/phases.py 4096 8192 > $D/logs/call2-ncu.txt 2>&1
timeout 200 python3 docs/experiments/2026-12-03-host-spare/spare.py --rounds 2 > docs/experiments/2026-12-03-host-spare/call1.txt 2>&1
timeout 150 python3 docs/experiments/2026-12-03-pairwise/accuracy.py best_fp32_accurate ozaki_int8 \
    --json $D/logs/call2-accuracy.json > $D/logs/call2-accuracy.txt 2>&1
tar czf $OUT/logs.tgz $D/logs docs/experiments/2026-12-03-host-spare/call1.txt
