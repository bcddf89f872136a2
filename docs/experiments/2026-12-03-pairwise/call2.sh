#!/usr/bin/env bash
# Device call 2 for the pairwise rung: its tile. The rung of call 1 (64 x 64 x 16, 8 warps of 32 x 16: 4 x 4
# outputs per thread) against two variants with twice the FMAs per shared-memory load, 4 x 8 outputs per thread
# (p1: 64 x 64 x 16, 4 warps of 32 x 32, two blocks per SM; p2: 128 x 64 x 16, 8 warps of 32 x 32, one block per SM),
# their objects built here (ab/p1, ab/p2), 3 rounds of alternating processes beside best and cuBLAS (speed.py);
# then the pairwise GPU tests again (the spread-input bound is now the fp32-accurate contract's), and the
# dispatcher tests with best_fp32_accurate running pairwise on a small C (and its contract over K).
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-pairwise
mkdir -p $D/logs
source tools/device_env.sh
step link link_library
variant() {
    rm -rf /tmp/build-$1 && cp -r build /tmp/build-$1 && cp ab/$1/pairwise.o /tmp/build-$1/kernels/pairwise.o &&
    nvcc -gencode 'arch=compute_90,code=[sm_90,compute_90]' -shared -o /tmp/lib-$1.so \
        $(find /tmp/build-$1/api /tmp/build-$1/core /tmp/build-$1/kernels -name '*.o' | sort) -ldl
}
step link-p1 variant p1
step link-p2 variant p2
SHAPES="1024x1024x1024 256x256x16 256x256x256 256x256x1024 256x256x4096 65x65x65 4000x33x1000 385x769x1537 129x4097x2000 100x11008x4096 3x11008x4096 2049x2047x999 257x3072x1024 96x200x80000"
for round in 1 2 3; do
    for v in base p1 p2; do
        lib=$PWD/matmul_opt/libmatmul.so; [ $v = base ] || lib=/tmp/lib-$v.so
        MATMUL_OPT_LIBRARY=$lib timeout 60 python3 $D/speed.py $v pairwise,best,best_fp32_accurate,cublas $SHAPES >> $D/logs/call2-speed.jsonl 2>> $D/logs/call2-speed.err
        echo "round $round $v rc=$?"
    done
done
tar czf $OUT/logs.tgz $D/logs
step tests bash -c "timeout 150 python3 -m pytest -q tests/test_gpu_pairwise.py tests/test_gpu_precision.py > $D/logs/call2-tests.log 2>&1; tail -3 $D/logs/call2-tests.log"
for v in p1 p2; do
    step tests-$v bash -c "MATMUL_OPT_LIBRARY=/tmp/lib-$v.so timeout 120 python3 -m pytest -q tests/test_gpu_pairwise.py > $D/logs/call2-tests-$v.log 2>&1; tail -3 $D/logs/call2-tests-$v.log"
done
tar czf $OUT/logs.tgz $D/logs
step report bash -c "timeout 120 python3 -m matmul_opt --kernels pairwise best best_fp32_accurate wgmma_3xtf32 cublas --sizes 1024 --json $D/logs/call2-report.json > $D/logs/call2-report.txt 2> $D/logs/call2-report.err; tail -30 $D/logs/call2-report.txt"
tar czf $OUT/logs.tgz $D/logs
