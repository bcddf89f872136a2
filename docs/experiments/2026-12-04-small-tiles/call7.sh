#!/usr/bin/env bash
# Device call 7 (from branch refill-in-loop, not run yet): the cp.async kernel issues the next tile's copies behind
# the first k's FMAs instead of before them (call 2's profile: the refill's branches and address arithmetic, 5% of
# the instructions, outside the FMA body, drew 12% of the warp stall samples). This branch's library against main's
# (.gitcarry/lib_main.so.gz): the same bits over the warp-tile kernels; every warp-tiled configuration forced
# (config_sweep.py), two rounds of alternating processes; best and cuBLAS on few-tile, square and projection shapes,
# three rounds; Nsight Compute on pipelined 64x128x16 at 257x6001x777.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
B=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call7-environment.txt
gunzip -c .gitcarry/lib_main.so.gz > /tmp/lib_main.so
cp matmul_opt/libmatmul.so /tmp/lib_refill.so
step bits bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 100 python3 $D/same_bits.py write /tmp/refill-bits-main &&
    MATMUL_OPT_LIBRARY=/tmp/lib_refill.so timeout 100 python3 $D/same_bits.py write /tmp/refill-bits-branch &&
    python3 $D/same_bits.py compare /tmp/refill-bits-main /tmp/refill-bits-branch > $L/call7-bits.txt 2>&1; tail -1 $L/call7-bits.txt"
step sweep bash -c "for round in 1 2; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 120 python3 $D/config_sweep.py --label main\$round
    MATMUL_OPT_LIBRARY=/tmp/lib_refill.so timeout 120 python3 $D/config_sweep.py --label refill\$round; done > $L/call7-sweep.txt 2>&1; wc -l $L/call7-sweep.txt"
SHAPES="385x769x1537 257x3072x1024 1153x1153x1153 128x4096x4096 250x1500x3000 257x6001x777 300x1200x1500 640x640x2000"
SHAPES+=" 1024x1024x1024 2048x2048x2048 4096x4096x4096 6000x6000x33 2048x12000x128 3001x257x5003 100x11008x4096"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/bench.py --repetitions 15 --label main\$round --shapes $SHAPES
    MATMUL_OPT_LIBRARY=/tmp/lib_refill.so python3 $B/bench.py --repetitions 15 --label refill\$round --shapes $SHAPES; done > $L/call7-ab.txt 2>&1; tail -2 $L/call7-ab.txt"
tar czf $OUT/logs.tgz $L
step ncu bash -c "timeout 90 ncu -k regex:'ffma|gemm' --launch-skip 1 --launch-count 1 --set full -f -o /tmp/refill-257 \
    python3 $D/profile.py 257 6001 777 'pipelined 64x128x16' 1 > $L/call7-ncu-refill-257.txt 2>&1;
    ncu -i /tmp/refill-257.ncu-rep --page details > $L/call7-ncu-refill-257-details.txt 2>&1;
    ncu -i /tmp/refill-257.ncu-rep --page source --print-source sass --csv 2>&1 | gzip > $L/call7-ncu-refill-257-sass.csv.gz;
    grep -E 'Duration|Executed Ipc A|Issue Slots Busy' $L/call7-ncu-refill-257-details.txt | head -3"
tar czf $OUT/logs.tgz $L
