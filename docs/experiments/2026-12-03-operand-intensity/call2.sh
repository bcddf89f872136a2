#!/usr/bin/env bash
# Device call 2, on main with the dispatchers' tuned thresholds (the tie broken upwards) and the split-K reduction's
# batched loads: the small-C probe again (docs/experiments/2026-12-03-small-c), Nsight Compute's kernel durations at
# two of its shapes, the report's grid with best and the dispatchers beside cuBLAS fp32 and TF32, the whole test
# suite, and the four sanitizers over the kernels that use the reduction (skinny, longk, splitk).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-operand-intensity
S=docs/experiments/2026-12-03-small-c
mkdir -p $D/logs $S/logs
source tools/device_env.sh
step link link_library
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call2-environment.txt
step probe bash -c "timeout 120 python3 $S/probe.py > $S/logs/call2-probe.txt 2>&1; tail -41 $S/logs/call2-probe.txt"
step ncu bash -c "timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv python3 $S/probe.py --ncu --kernels best cublas --shapes 1x1x1000000 16x16x500000 32x32x300000 > $S/logs/call2-ncu.csv 2>&1; grep -c gpu__time $S/logs/call2-ncu.csv"
tar czf $OUT/logs.tgz $D/logs $S/logs
step report bash -c "timeout 200 python3 -m matmul_opt --kernels best_fp32_accurate best_tf32 best cublas cublas_tf32 --sizes 2048 4096 8192 --accuracy-k --rest 0.2 --grid best best_tf32 best_fp32_accurate cublas_tf32 --json $D/logs/call2-report.json > $D/logs/call2-report.txt 2>/dev/null; grep -E 'geometric' $D/logs/call2-report.txt"
tar czf $OUT/logs.tgz $D/logs $S/logs
step pytest bash -c "timeout 220 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $D/logs/call2-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call2-pytest.log | head -20; tail -1 $D/logs/call2-pytest.log"
tar czf $OUT/logs.tgz $D/logs $S/logs
step sanitize bash -c "timeout 200 python3 -m tools.sanitize --kernels skinny,longk,splitk > $S/logs/call2-sanitize.log 2>&1; tail -8 $S/logs/call2-sanitize.log"
tar czf $OUT/logs.tgz $D/logs $S/logs
