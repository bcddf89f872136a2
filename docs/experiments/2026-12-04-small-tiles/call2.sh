#!/usr/bin/env bash
# Device call 2: the FFMA warp tile's lanes placed in pairs of quarter-warps on disjoint banks (branch lane-pairs,
# .gitcarry/lib_lanes.so.gz) against main (.gitcarry/lib_main.so.gz): the same bits over the warp-tile kernels,
# Nsight Compute on pipelined 64x128x16 at 257x6001x777 and 1153^3 (shared wavefronts per read), best and cuBLAS on
# few-tile, square and projection shapes in alternating processes (three rounds), and the kernel tests. First,
# branch along-l-interior's call 2 in its own tree (.gitcarry/one.tgz, its library .gitcarry/lib_one.so.gz).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
B=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call2-environment.txt
ROOT=$PWD
for v in main lanes; do gunzip -c .gitcarry/lib_$v.so.gz > /tmp/lib_$v.so; done
cp /tmp/lib_lanes.so matmul_opt/libmatmul.so

mkdir -p /tmp/one/.gitcarry && tar xzf .gitcarry/one.tgz -C /tmp/one && cp .gitcarry/lib_main.so.gz /tmp/one/.gitcarry/ &&
    gunzip -c .gitcarry/lib_one.so.gz > /tmp/one/matmul_opt/libmatmul.so
step along-l bash -c "cd /tmp/one && timeout 200 bash docs/experiments/2026-12-04-along-l-interior/call2.sh 2>&1 | tail -5"
tar czf $OUT/along-l-logs.tgz -C /tmp/one docs/experiments/2026-12-04-along-l-interior/logs

cd $ROOT
step bits bash -c "MATMUL_OPT_LIBRARY=/tmp/lib_main.so timeout 100 python3 $D/same_bits.py write /tmp/tile-bits-main &&
    MATMUL_OPT_LIBRARY=/tmp/lib_lanes.so timeout 100 python3 $D/same_bits.py write /tmp/tile-bits-lanes &&
    python3 $D/same_bits.py compare /tmp/tile-bits-main /tmp/tile-bits-lanes > $L/call2-bits.txt 2>&1; tail -1 $L/call2-bits.txt; grep DIFFER $L/call2-bits.txt | head"
profile() {  # name M N K CONFIG [SPLITS]
    local name=$1; shift
    timeout 90 ncu -k regex:'ffma|gemm' --launch-skip 1 --launch-count 1 --set full -f -o /tmp/$name \
        python3 $D/profile.py "$@" > $L/call2-ncu-$name.txt 2>&1
    ncu -i /tmp/$name.ncu-rep --page details > $L/call2-ncu-$name-details.txt 2>&1
    ncu -i /tmp/$name.ncu-rep --page source --print-source sass --csv 2>&1 | gzip > $L/call2-ncu-$name-sass.csv.gz
    grep -E "Duration|Executed Ipc A|Issue Slots Busy|Registers Per" $L/call2-ncu-$name-details.txt | head -6
}
step ncu-lanes-257 profile lanes-257 257 6001 777 'pipelined 64x128x16' 1
step ncu-lanes-1153 profile lanes-1153 1153 1153 1153 'pipelined 64x128x16' 2
SHAPES="385x769x1537 257x3072x1024 1153x1153x1153 128x4096x4096 250x1500x3000 257x6001x777 300x1200x1500 640x640x2000"
SHAPES+=" 1024x1024x1024 2048x2048x2048 4096x4096x4096 8192x8192x8192 2048x11008x4096 300x28672x4096 16000x1024x4096"
SHAPES+=" 6145x3073x515 2048x12000x128 3001x257x5003 100x11008x4096"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/bench.py --repetitions 15 --label main\$round --shapes $SHAPES
    MATMUL_OPT_LIBRARY=/tmp/lib_lanes.so python3 $B/bench.py --repetitions 15 --label lanes\$round --shapes $SHAPES; done > $L/call2-ab.txt 2>&1; tail -2 $L/call2-ab.txt"
tar czf $OUT/logs.tgz $L
step tests bash -c "timeout 150 python3 -m pytest tests/test_gpu_kernels.py tests/test_gpu_native_ops.py tests/test_gpu_pairwise.py -q -p no:cacheprovider > $L/call2-pytest.log 2>&1; tail -1 $L/call2-pytest.log"
tar czf $OUT/logs.tgz $L
