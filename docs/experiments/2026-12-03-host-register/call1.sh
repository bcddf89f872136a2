#!/usr/bin/env bash
# Device call 1 of the host-register record, on main: the whole test suite (the GPU tests of best's long-K and
# many-waves rules and of best_fp32_accurate's K bound run here first), what page-locking costs by each route
# (register_cost.py), and Nsight Compute over one ozaki_int8 product at 4096^3 for the tutorial.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-host-register
mkdir -p $D/logs
source tools/device_env.sh
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call1-environment.txt
step register bash -c "timeout 90 python3 $D/register_cost.py > $D/logs/call1-register.txt 2>&1; cat $D/logs/call1-register.txt"
tar czf $OUT/logs.tgz $D/logs
step pytest bash -c "timeout 240 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $D/logs/call1-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $D/logs/call1-pytest.log | head -20; tail -1 $D/logs/call1-pytest.log"
tar czf $OUT/logs.tgz $D/logs
step ncu bash -c "OUT=$D/logs timeout 120 bash docs/tutorial/ncu/profile_rungs.sh ozaki_int8; rm -f $D/logs/ncu-ozaki_int8.full.txt.gz; gzip -f $D/logs/ncu-ozaki_int8.full.txt; head -60 $D/logs/ncu-ozaki_int8.txt"
tar czf $OUT/logs.tgz $D/logs
