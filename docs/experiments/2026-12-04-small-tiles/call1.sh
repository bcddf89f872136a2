#!/usr/bin/env bash
# Device call 1 (session of 2026-12-04, evening): three things in one machine start.
# 1. Branch along-l-interior (merged with main) in its own tree (.gitcarry/one.tgz, its library
#    .gitcarry/lib_one.so.gz), its record's call1.sh: against main's library (.gitcarry/lib_main.so.gz) and
#    along-l-interior-two's (.gitcarry/lib_two.so.gz).
# 2. Branch result-parallel-map (merged with main) in its own tree (.gitcarry/pmap.tgz), its record's call5.sh, with
#    main's library and main's package as the 'before' (.gitcarry/before.tgz).
# 3. Nsight Compute, full set, on one product each: pipelined 64x128x16 forced (no split) and cuBLAS at
#    257x6001x777 (the same grid of 235 blocks), pipelined 64x128x16 at 2 slices (best's
#    choice) and cuBLAS at 1153^3.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call1-environment.txt
ROOT=$PWD
gunzip -c .gitcarry/lib_main.so.gz > matmul_opt/libmatmul.so

mkdir -p /tmp/one && tar xzf .gitcarry/one.tgz -C /tmp/one && mkdir -p /tmp/one/.gitcarry &&
    cp .gitcarry/lib_main.so.gz .gitcarry/lib_two.so.gz /tmp/one/.gitcarry/ &&
    gunzip -c .gitcarry/lib_one.so.gz > /tmp/one/matmul_opt/libmatmul.so
step along-l bash -c "cd /tmp/one && OUT=/tmp/out-one timeout 240 bash docs/experiments/2026-12-04-along-l-interior/call1.sh 2>&1 | tail -40"
tar czf $OUT/along-l-logs.tgz -C /tmp/one docs/experiments/2026-12-04-along-l-interior/logs

mkdir -p /tmp/pmap && tar xzf .gitcarry/pmap.tgz -C /tmp/pmap && mkdir -p /tmp/pmap/.gitcarry &&
    cp .gitcarry/before.tgz /tmp/pmap/.gitcarry/ && cp matmul_opt/libmatmul.so /tmp/pmap/matmul_opt/
step parallel-map bash -c "cd /tmp/pmap && OUT=/tmp/out-pmap timeout 200 bash docs/experiments/2026-12-04-huge-pages/call5.sh 2>&1 | tail -60"
tar czf $OUT/pmap-logs.tgz -C /tmp/pmap docs/experiments/2026-12-04-huge-pages/logs

cd $ROOT
profile() {  # name M N K CONFIG [SPLITS]
    local name=$1; shift
    timeout 90 ncu -k regex:'ffma|gemm' --launch-skip 1 --launch-count 1 --set full -f -o /tmp/$name \
        python3 $D/profile.py "$@" > $L/call1-ncu-$name.txt 2>&1
    ncu -i /tmp/$name.ncu-rep --page details > $L/call1-ncu-$name-details.txt 2>&1
    ncu -i /tmp/$name.ncu-rep --page source --print-source sass --csv > /tmp/$name-sass.csv 2>&1 && gzip -c /tmp/$name-sass.csv > $L/call1-ncu-$name-sass.csv.gz
    # (the report itself, 11-16 MB, is not kept: its details page and per-instruction table are)
    grep -E "Duration|Registers Per|Achieved Occupancy|Executed Ipc A|Issue Slots Busy|No Eligible|Warp Cycles Per Issued" $L/call1-ncu-$name-details.txt | head -12
}
step ncu-p64x128-257 profile p64x128-257 257 6001 777 'pipelined 64x128x16' 1
step ncu-cublas-257 profile cublas-257 257 6001 777 cublas
step ncu-p64x128-1153 profile p64x128-1153 1153 1153 1153 'pipelined 64x128x16' 2
step ncu-cublas-1153 profile cublas-1153 1153 1153 1153 cublas
tar czf $OUT/logs.tgz $L
