#!/usr/bin/env bash
# Device call 10: the tuner at main (its tables came from before the warp tile's lanes in quarter-warp pairs, which
# made the 32x32 and 32x64 warp tiles 7-23% faster), its tables and timings into logs/call10-*; and branch
# mid-spare's spare_timing.py (huge-pages record) over the kept pattern, main's results module and the branch's, to
# find what makes the branch's second and third calls slower (call 9).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
L=$D/logs; mkdir -p $L
S=$PWD/.gitcarry/s1
source tools/device_env.sh
{ echo "main at 58ab8e4"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call10-environment.txt
gunzip -c $S/lib_main.so.gz > matmul_opt/libmatmul.so
mkdir -p /tmp/mid /tmp/before && tar xzf $S/mid-spare.tgz -C /tmp/mid && cp matmul_opt/libmatmul.so /tmp/mid/matmul_opt/ &&
    tar xzf $S/before.tgz -C /tmp/before
T=/tmp/mid/docs/experiments/2026-12-04-huge-pages/spare_timing.py
step spare bash -c "cd /tmp/mid && for round in 1 2; do for n in 1024 2048; do for tree in before after; do
    echo \"== \$round \$n \$tree\"; if [ \$tree = before ]; then PYTHONPATH=/tmp/before:/tmp/mid MATMUL_OPT_LIBRARY=/tmp/mid/matmul_opt/libmatmul.so timeout 60 python3 $T keep \$n;
    else PYTHONPATH=/tmp/mid timeout 60 python3 $T keep \$n; fi; done; done; done > $OUT/call10-spare.txt 2>&1; grep -c call_ms $OUT/call10-spare.txt"
step tune bash -c "timeout 330 python3 -m matmul_opt.tune --json $L/call10-tune.json --write > $L/call10-tune.txt 2> $L/call10-tune.err;
    tail -2 $L/call10-tune.err; cp cuda/kernels/best_table.h $L/call10-best_table.h; cp cuda/kernels/precision_table.h $L/call10-precision_table.h"
cp $OUT/call10-spare.txt $L/
tar czf $OUT/logs.tgz $L
