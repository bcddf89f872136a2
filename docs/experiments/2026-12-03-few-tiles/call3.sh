#!/usr/bin/env bash
# Device call 3 of the few-tiles record: the cp.async kernel's K slices added up within a thread block cluster
# (core/epilogue/cluster_sum.cuh) where a tile has at most 8 of them. The whole test suite; the four sanitizers over
# best (every configuration forced into 3 slices, so every cp.async tile runs the cluster sum); the sweep again; the
# tuner (its tables come back in logs/call3-*).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-few-tiles
mkdir -p $D/logs
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD) plus the working tree"; date -u; } > $D/logs/call3-environment.txt
save() { tar czf $OUT/logs.tgz $D/logs; }
step sweep bash -c "timeout 120 python3 $D/sweep.py --repetitions 10 --json $D/logs/call3-sweep.json > $D/logs/call3-sweep.txt 2>&1; head -3 $D/logs/call3-sweep.txt; grep -E '^[0-9]' $D/logs/call3-sweep.txt"
save
step pytest bash -c "timeout 220 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $D/logs/call3-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call3-pytest.log | head -20; tail -1 $D/logs/call3-pytest.log"
save
step sanitize bash -c "timeout 170 python3 -m tools.sanitize --kernels best,splitk --jobs 4 --timeout 150 > $D/logs/call3-sanitize.txt 2>&1; echo rc=\$?; tail -12 $D/logs/call3-sanitize.txt; cp results/latest/sanitizer-*.log $D/logs/ 2>/dev/null; grep -h 'ERROR SUMMARY' results/latest/sanitizer-*.log | sort | uniq -c"
save
step tune bash -c "timeout 100 python3 -m matmul_opt.tune --json $D/logs/call3-tune.json --write > $D/logs/call3-tune.txt 2> $D/logs/call3-tune.err; tail -1 $D/logs/call3-tune.err; cp cuda/kernels/best_table.h $D/logs/call3-best_table.h; cp cuda/kernels/precision_table.h $D/logs/call3-precision_table.h"
save
