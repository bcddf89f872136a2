#!/usr/bin/env bash
# Device call 6 of this record: run from the checkout with .gitcarry/s15/lib_head.so.gz (main's head) carried.
# Nsight Compute's launch and occupancy sections over one call of best on the six cut products of call 5
# (fixed_cost.py --ncu: three calls per product, nothing timed): each kernel's grid and waves per SM.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
gunzip -c .gitcarry/s15/lib_head.so.gz > matmul_opt/libmatmul.so
timeout 200 ncu --clock-control none --section LaunchStats --section Occupancy --metrics gpu__time_duration.sum \
    --csv python3 docs/experiments/2026-12-06-one-launch/fixed_cost.py --ncu --kernels best \
    --shapes 3001x257x5003,129x4097x2000,8193x129x1000,1153x1153x1153,6145x3073x515,4225x193x2000 \
    > $OUT/ncu.csv 2> $OUT/ncu.err
python3 - $OUT/ncu.csv <<'PY' | tee $OUT/waves.txt
import csv, io, sys
lines = open(sys.argv[1]).read().splitlines()  # the program's own output comes first
start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
rows = [r for r in csv.DictReader(io.StringIO("\n".join(lines[start:]))) if "at::" not in r["Kernel Name"]]
seen = {}
for r in rows:
    d = seen.setdefault(r["ID"], {"name": r["Kernel Name"][:60], "grid": r["Grid Size"], "block": r["Block Size"]})
    if r["Metric Name"] in ("Waves Per SM", "Duration", "Theoretical Occupancy", "Block Limit Registers",
                            "Block Limit Shared Mem", "gpu__time_duration.sum"):
        d[r["Metric Name"]] = r["Metric Value"]
for i, d in seen.items():
    print(i, d)
PY
