#!/usr/bin/env bash
# Device call 1 of the few-tiles record, on main plus this record's probe and the tuner's panel sides past 256:
# best's and cuBLAS's times and kernels on products of few output tiles (probe.py); the tuner with panel rows up to
# 384 (its tables come back in logs/); the whole test suite; memcheck over the host path (the result memory that
# issue 34's last step page-locks had not run under a sanitizer).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-few-tiles
mkdir -p $D/logs
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call1-environment.txt
save() { tar czf $OUT/logs.tgz $D/logs; }
step times bash -c "timeout 120 python3 $D/probe.py times > $D/logs/call1-times.txt 2>&1; cat $D/logs/call1-times.txt"
save
M="gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__cluster_dim_z"
for k in best cublas; do
    step ncu-$k bash -c "timeout 100 ncu --profile-from-start off --metrics $M --csv python3 $D/probe.py once $k > $D/logs/call1-ncu-$k.csv 2> $D/logs/call1-ncu-$k.err; wc -l $D/logs/call1-ncu-$k.csv; tail -2 $D/logs/call1-ncu-$k.err"
done
save
step tune bash -c "timeout 200 python3 -m matmul_opt.tune --json $D/logs/call1-tune.json --write > $D/logs/call1-tune.txt 2> $D/logs/call1-tune.err; tail -2 $D/logs/call1-tune.err; cp cuda/kernels/best_table.h cuda/kernels/precision_table.h $D/logs/; grep -A16 'kPanelRows\[\]' cuda/kernels/best_table.h"
save
step pytest bash -c "timeout 200 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $D/logs/call1-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call1-pytest.log | head -20; tail -1 $D/logs/call1-pytest.log"
save
step memcheck-host bash -c "timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 python3 -m pytest tests/test_gpu_host_path.py -q -p no:cacheprovider > $D/logs/call1-memcheck-host.log 2>&1; echo rc=\$?; grep -E 'ERROR SUMMARY|passed|failed' $D/logs/call1-memcheck-host.log | tail -3"
save
