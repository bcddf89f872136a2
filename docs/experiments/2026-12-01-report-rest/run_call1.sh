#!/usr/bin/env bash
# Device call 1: the recovery probe, then scripts/end_to_end.py twice (issue 16's rows), with the library carried.
set -u
D=docs/experiments/2026-12-01-report-rest
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,driver_version --format=csv > $OUT/env.txt
python3 $D/recovery.py $OUT > $OUT/recovery.txt 2>&1
for i in 1 2; do python3 scripts/end_to_end.py > $OUT/e2e-$i.txt 2>&1; done
tail -n +1 $OUT/recovery.txt $OUT/e2e-*.txt
