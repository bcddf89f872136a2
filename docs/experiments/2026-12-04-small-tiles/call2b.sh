#!/usr/bin/env bash
# Device call 2b (a rerun of call 2's same-bits and timing steps, which call 2 had broken: a folder name that
# branch along-l-interior's call wrote first, and a shape list over several lines): the FFMA warp tile's lanes placed in pairs of quarter-warps on disjoint banks (branch lane-pairs,
# .gitcarry/lib_lanes.so.gz) against main (.gitcarry/lib_main.so.gz): the same bits over the warp-tile kernels,
# Nsight Compute on pipelined 64x128x16 at 257x6001x777 and 1153^3 (shared wavefronts per read), best and cuBLAS on
# few-tile, square and projection shapes in alternating processes (three rounds), and the kernel tests. First,
# branch along-l-interior's call 2 in its own tree (.gitcarry/one.tgz, its library .gitcarry/lib_one.so.gz).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
B=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call2b-environment.txt
for v in main lanes; do gunzip -c .gitcarry/lib_$v.so.gz > /tmp/lib_$v.so; done
step bits bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 100 python3 $D/same_bits.py write /tmp/tile-bits-main &&
    MATMUL_OPT_LIBRARY=/tmp/lib_lanes.so timeout 100 python3 $D/same_bits.py write /tmp/tile-bits-lanes &&
    python3 $D/same_bits.py compare /tmp/tile-bits-main /tmp/tile-bits-lanes > $L/call2b-bits.txt 2>&1; tail -1 $L/call2b-bits.txt; grep DIFFER $L/call2b-bits.txt | head"
SHAPES="385x769x1537 257x3072x1024 1153x1153x1153 128x4096x4096 250x1500x3000 257x6001x777 300x1200x1500 640x640x2000"
SHAPES+=" 1024x1024x1024 2048x2048x2048 4096x4096x4096 8192x8192x8192 2048x11008x4096 300x28672x4096 16000x1024x4096"
SHAPES+=" 6145x3073x515 2048x12000x128 3001x257x5003 100x11008x4096"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/bench.py --repetitions 15 --label main\$round --shapes $SHAPES
    MATMUL_OPT_LIBRARY=/tmp/lib_lanes.so python3 $B/bench.py --repetitions 15 --label lanes\$round --shapes $SHAPES; done > $L/call2b-ab.txt 2>&1; tail -2 $L/call2b-ab.txt"
tar czf $OUT/logs.tgz $L
tar czf $OUT/logs.tgz $L
