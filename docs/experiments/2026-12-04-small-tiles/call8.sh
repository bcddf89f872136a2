#!/usr/bin/env bash
# Device call 8 (from branch line-rows, not run yet): the host path's device copies (and so the benchmark's inputs)
# with rows of whole 128-byte lines where that adds at most a sixteenth to a row (call 2's profile: B's 16-byte
# copies took 10-11 shared wavefronts where 4 would do, on rows of 6001 floats padded to 6004). This branch's library
# against main's (.gitcarry/lib_main.so.gz), alternating processes, three rounds: best and cuBLAS on grid shapes
# whose rows are not whole lines and on controls whose rows are; the host-path tests; Nsight Compute on pipelined
# 64x128x16 at 257x6001x777.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-04-small-tiles
B=docs/experiments/2026-12-04-bulk-mainloop
L=$D/logs; mkdir -p $L
source tools/device_env.sh
{ echo "commit $(git rev-parse HEAD)"; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv; date -u; } > $L/call8-environment.txt
gunzip -c .gitcarry/lib_main.so.gz > /tmp/lib_main.so
cp matmul_opt/libmatmul.so /tmp/lib_lines.so
SHAPES="385x769x1537 1153x1153x1153 257x6001x777 250x1500x3000 2049x2047x999 6145x3073x515 129x4097x2000"
SHAPES+=" 3001x257x5003 300x1200x1500 1000x5120x13824 2048x2048x2048 257x3072x1024 4096x4096x4096 128x4096x4096"
step ab bash -c "for round in 1 2 3; do
    MATMUL_OPT_LIBRARY=/tmp/lib_main.so python3 $B/bench.py --repetitions 15 --label main\$round --shapes $SHAPES
    MATMUL_OPT_LIBRARY=/tmp/lib_lines.so python3 $B/bench.py --repetitions 15 --label lines\$round --shapes $SHAPES; done > $L/call8-ab.txt 2>&1; tail -2 $L/call8-ab.txt"
step tests bash -c "timeout 120 python3 -m pytest tests/test_gpu_host_path.py tests/test_gpu_kernels.py -q -p no:cacheprovider > $L/call8-pytest.log 2>&1; tail -1 $L/call8-pytest.log"
tar czf $OUT/logs.tgz $L
step ncu bash -c "timeout 90 ncu -k regex:'ffma|gemm' --launch-skip 1 --launch-count 1 --set full -f -o /tmp/lines-257 \
    python3 $D/profile.py 257 6001 777 'pipelined 64x128x16' 1 > $L/call8-ncu-lines-257.txt 2>&1;
    ncu -i /tmp/lines-257.ncu-rep --page details > $L/call8-ncu-lines-257-details.txt 2>&1;
    ncu -i /tmp/lines-257.ncu-rep --page source --print-source sass --csv 2>&1 | gzip > $L/call8-ncu-lines-257-sass.csv.gz;
    grep -E 'Duration|Executed Ipc A|Issue Slots Busy' $L/call8-ncu-lines-257-details.txt | head -3"
tar czf $OUT/logs.tgz $L
