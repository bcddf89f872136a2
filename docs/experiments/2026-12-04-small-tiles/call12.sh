#!/usr/bin/env bash
# Device call 12: (1) branch retune's build (best's tables from call 11's tuner run, .gitcarry/s1/lib_retune.so.gz)
# against main's (lib_main.so.gz), best and cuBLAS in alternating processes, three rounds, on the shapes whose choice
# the tables change and on controls; (2) the whole test suite on the branch's build in its tree; (3) again (call 11
# ran them from the wrong package) spare_timing.py and the host patterns at 1024^3, mid-spare against mid-spare-aside.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
B=docs/experiments/2026-12-04-bulk-mainloop
H=docs/experiments/2026-12-04-huge-pages
S=$PWD/.gitcarry/s1
source tools/device_env.sh
for v in main retune; do gunzip -c $S/lib_$v.so.gz > /tmp/lib_$v.so; done
for t in retune mid-spare mid-spare-aside; do mkdir -p /tmp/$t && tar xzf $S/$t.tgz -C /tmp/$t && cp /tmp/lib_main.so /tmp/$t/matmul_opt/libmatmul.so; done
cp /tmp/lib_retune.so /tmp/retune/matmul_opt/libmatmul.so
L=/tmp/retune/$D/logs; mkdir -p $L /tmp/mid-spare/$H/logs
{ echo "branch retune (tables of call 11) against main 58ab8e4"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call12-environment.txt
SHAPES="257x3072x1024 3001x257x5003 300x28672x4096 200x300x20000 8192x8192x8192 16x4096x4096 12x4096x4096"
SHAPES+=" 300x5000x2000 320x12000x1024 7169x257x1500 384x6000x3000 4096x300x4096 350x20000x1000 270x9000x700"
SHAPES+=" 385x769x1537 128x4096x4096 250x1500x3000 4096x4096x4096 1000x5120x13824 500x500x60000 128x100x200000"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/bench.py --repetitions 15 --label main\$round --shapes $SHAPES
    MATMUL_OPT_LIBRARY=/tmp/lib_retune.so python3 $B/bench.py --repetitions 15 --label retune\$round --shapes $SHAPES; done > $L/call12-ab.txt 2>&1; tail -2 $L/call12-ab.txt"
tar czf $OUT/small-tiles-logs.tgz -C /tmp/retune $D/logs
step spare bash -c "for round in 1 2; do for t in mid-spare mid-spare-aside; do echo \"== \$round \$t\";
    (cd /tmp/\$t && PYTHONPATH=/tmp/\$t timeout 60 python3 $H/spare_timing.py keep 1024); done; done > /tmp/mid-spare/$H/logs/call7-spare-timing.txt 2>&1; grep -c call_ms /tmp/mid-spare/$H/logs/call7-spare-timing.txt"
step patterns bash -c "for round in 1 2; do for p in reassign keep chain alternate keep-torch; do for t in mid-spare mid-spare-aside; do
    a=\$p; x=''; [ \$p = keep-torch ] && a=keep x=--torch
    echo \"\$round 1024 \$p \$t \$(cd /tmp/\$t && PYTHONPATH=/tmp/\$t timeout 60 python3 $H/patterns.py \$a 1024 \$x 2>&1 | tail -1)\"; done; done; done > /tmp/mid-spare/$H/logs/call7-patterns.txt 2>&1; wc -l < /tmp/mid-spare/$H/logs/call7-patterns.txt"
tar czf $OUT/huge-pages-logs.tgz -C /tmp/mid-spare $H/logs
step pytest bash -c "cd /tmp/retune && PYTHONPATH=/tmp/retune timeout 250 python3 -m pytest tests -q -rfEs -p no:cacheprovider > $L/call12-pytest.log 2>&1; grep -E '^(FAILED|ERROR)' $L/call12-pytest.log | head; tail -1 $L/call12-pytest.log"
tar czf $OUT/small-tiles-logs.tgz -C /tmp/retune $D/logs
