#!/usr/bin/env bash
# Device call 1. First the small-C probe (docs/experiments/2026-12-03-small-c: per-call times, host enqueue times
# and Nsight Compute's kernel durations of small products with a long K). Then the tuner with the precision sweep's
# new panels writes best_table.h and precision_table.h (the dispatchers' two thresholds per class); best and the
# dispatchers are rebuilt, the library relinked, the tables committed on a branch `tuned` and sent back as a bundle;
# then the report's grid with the dispatchers beside best and cuBLAS fp32 and TF32.
export OUT=${OUT:-/tmp/out}
R=results/latest
D=docs/experiments/2026-12-03-operand-intensity
S=docs/experiments/2026-12-03-small-c
mkdir -p $D/logs $S/logs
source tools/device_env.sh
step link link_library
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call1-environment.txt
step probe bash -c "timeout 120 python3 $S/probe.py > $S/logs/call1-probe.txt 2>&1; tail -45 $S/logs/call1-probe.txt"
step ncu bash -c "timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv python3 $S/probe.py --ncu --shapes 1x1x1000000 8x8x16384 16x16x500000 1x1x1024 > $S/logs/call1-ncu.csv 2>&1; grep -c gpu__time $S/logs/call1-ncu.csv"
tar czf $OUT/logs.tgz $D/logs $S/logs
step tune bash -c "timeout 150 python3 -m matmul_opt.tune --json $R/tune-h200.json --write > $R/tune-h200.txt 2>/dev/null; grep constexpr cuda/kernels/precision_table.h; grep -E '^precision' $R/tune-h200.txt"
step rebuild compile_objects cuda/kernels/best.cu cuda/kernels/by_precision.cu
step relink link_library
git checkout -q -B tuned
git -c user.name=matmul-opt -c user.email=matmul-opt@localhost commit -q -m "best's and the dispatchers' tables from the tuner's run on the H200 (results/latest/tune-h200.json)" cuda/kernels/best_table.h cuda/kernels/precision_table.h $R/tune-h200.json $R/tune-h200.txt
git bundle create $OUT/tuned.bundle tuned ^HEAD~1 2>&1 | tail -1
echo "tuned commit $(git rev-parse HEAD)" >> $D/logs/call1-environment.txt
git diff HEAD~1 --stat
step report bash -c "timeout 200 python3 -m matmul_opt --kernels best_fp32_accurate best_tf32 best cublas cublas_tf32 --sizes 2048 4096 8192 --accuracy-k --rest 0.2 --grid best best_tf32 best_fp32_accurate cublas_tf32 --json $D/logs/call1-report.json > $D/logs/call1-report.txt 2>/dev/null; grep -E 'geometric' $D/logs/call1-report.txt"
tar czf $OUT/logs.tgz $D/logs $S/logs $R/tune-h200.*
