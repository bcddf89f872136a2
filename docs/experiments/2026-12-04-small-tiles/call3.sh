#!/usr/bin/env bash
# Device call 3: every warp-tiled configuration of best forced on five shapes (config_sweep.py), main
# (.gitcarry/lib_main.so.gz) against branch lane-pairs (.gitcarry/lib_lanes.so.gz) in alternating processes, two
# rounds: which tiles gain from the lanes in quarter-warp pairs and which lose (call 2: best 8% faster at
# 385x769x1537, 1.5-2.5% slower at 2048^3, 8192^3, 6145x3073x515). First, branch along-l-interior's call 3 in its
# own tree (.gitcarry/one.tgz, its library .gitcarry/lib_one.so.gz).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call3-environment.txt
ROOT=$PWD
for v in main lanes; do gunzip -c .gitcarry/lib_$v.so.gz > /tmp/lib_$v.so; done

mkdir -p /tmp/one/.gitcarry && tar xzf .gitcarry/one.tgz -C /tmp/one && cp .gitcarry/lib_main.so.gz /tmp/one/.gitcarry/ &&
    gunzip -c .gitcarry/lib_one.so.gz > /tmp/one/matmul_opt/libmatmul.so
step along-l bash -c "cd /tmp/one && timeout 200 bash docs/experiments/2026-12-04-along-l-interior/call3.sh 2>&1 | tail -5"
tar czf $OUT/along-l-logs.tgz -C /tmp/one docs/experiments/2026-12-04-along-l-interior/logs

cd $ROOT
step sweep bash -c "for round in 1 2; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 120 python3 $D/config_sweep.py --label main\$round
    MATMUL_OPT_LIBRARY=/tmp/lib_lanes.so timeout 120 python3 $D/config_sweep.py --label lanes\$round; done > $L/call3-sweep.txt 2>&1; wc -l $L/call3-sweep.txt"
tar czf $OUT/logs.tgz $L
