#!/usr/bin/env bash
# Device call 1: correctness of two variants carried as objects (ab/fold: skinny with folded sums; ab/narrow:
# wgmma_tf32 with a narrow tile) and of main's pairwise rung, side by side on the GPU: compute-sanitizer over
# pairwise (main), skinny (fold) and wgmma_tf32 (narrow); the branches' GPU tests against their own library; the
# int8 probe's self-check under memcheck and racecheck. Then, alone on the GPU: the int8 probe's timings and Nsight
# Compute sections of best on the grid's shapes bound by bytes (record bytes-bound).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-fold-and-narrow
P=docs/experiments/2026-12-03-bytes-bound
I=docs/experiments/2026-12-03-int8-wgmma
mkdir -p $D/logs $P/logs $I/logs
source tools/device_env.sh >/dev/null 2>&1
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,power.limit --format=csv; git rev-parse HEAD; date -u; } > $D/logs/call1-environment.txt
pack() { tar czf $OUT/logs.tgz $D/logs $P/logs $I/logs; }
step link link_library
variant() {  # variant NAME OBJECT...: main's objects with ab/NAME's in place of these, linked to /tmp/lib-NAME.so
    local name=$1 o; shift
    rm -rf /tmp/build-$name && cp -r build /tmp/build-$name || return
    for o in "$@"; do cp ab/$name/$o /tmp/build-$name/$o || return; done
    nvcc -gencode 'arch=compute_90,code=[sm_90,compute_90]' -shared -o /tmp/lib-$name.so \
        $(find /tmp/build-$name/api /tmp/build-$name/core /tmp/build-$name/kernels -name '*.o' | sort) -ldl
}
step link-fold variant fold kernels/skinny.o
step link-narrow variant narrow kernels/wgmma_tf32_sm90a.o api/registry.o
cp ab/fold/test_gpu_shape_grid.py tests/test_gpu_shape_grid_fold.py
cp ab/narrow/test_gpu_kernels.py tests/test_gpu_kernels_narrow.py

sanitize() {  # sanitize LABEL LIBRARY KERNEL
    MATMUL_OPT_LIBRARY=$2 timeout 300 python3 -m tools.sanitize --kernels $3 --jobs 4 --timeout 280 > $D/logs/call1-sanitize-$1.log 2>&1
    echo "sanitize $1 rc=$?" >> $D/logs/call1-sanitize-$1.log
    cp results/latest/sanitizer-*-$3.log $D/logs/ 2>/dev/null
    for f in $D/logs/sanitizer-*-$3.log; do mv $f ${f%.log}-$1.log; done
}
( sanitize main $PWD/matmul_opt/libmatmul.so pairwise ) &
( sanitize fold /tmp/lib-fold.so skinny ) &
( sanitize narrow /tmp/lib-narrow.so wgmma_tf32 ) &
int8_check() {
    for tool in memcheck racecheck; do
        timeout 280 compute-sanitizer --tool $tool ab/int8_probe 512 > $I/logs/call1-$tool.log 2>&1
        echo "$tool rc=$?" >> $I/logs/call1-$tool.log
    done
}
( int8_check ) &
pt() { timeout 280 python3 -m pytest -q -p no:cacheprovider "$@"; }
( pt tests/test_gpu_pairwise.py tests/test_gpu_precision.py > $D/logs/call1-tests-main.log 2>&1 ) &
( MATMUL_OPT_LIBRARY=/tmp/lib-fold.so pt tests/test_gpu_shape_grid_fold.py > $D/logs/call1-tests-fold.log 2>&1 ) &
( MATMUL_OPT_LIBRARY=/tmp/lib-narrow.so pt tests/test_gpu_kernels_narrow.py tests/test_gpu_precision.py -k "tf32" > $D/logs/call1-tests-narrow.log 2>&1 ) &
step correctness wait
rm tests/test_gpu_shape_grid_fold.py tests/test_gpu_kernels_narrow.py
tail -n 3 $D/logs/call1-tests-*.log; tail -n 2 $D/logs/call1-sanitize-*.log $I/logs/call1-*check.log
pack

step int8 bash -c "timeout 100 ab/int8_probe > $I/logs/call1-probe.txt 2>&1; echo rc=\$?; cat $I/logs/call1-probe.txt"
pack
BYTES="1x4096x4096 8x4096x4096 4096x16x4096 3x11008x4096 13x5120x13824 7000x5x3000 1x1500x9000 11x14336x2500 9000x24x2000 17x8000x8000 4096x4096x16 5000x3000x1 7777x4444x8 16x16x500000 32x32x300000"
step ncu bash -c "timeout 150 ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section MemoryWorkloadAnalysis python3 $P/profile_best.py best $BYTES > $P/logs/call1-ncu.txt 2>&1; echo rc=\$?; \
    grep -cE '^  [a-z_]+.*\(' $P/logs/call1-ncu.txt"
pack
