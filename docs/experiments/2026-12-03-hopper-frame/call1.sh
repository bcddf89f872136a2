#!/usr/bin/env bash
# Device call 1 for the Hopper frame (cuda/core/kernel/warp_specialized.cuh): the library of this commit against
# the same objects with the wgmma kernels (and the two epilogue objects that include the changed schedule and store
# headers) of the commit before the frame, carried in ab/old/. The machine code of both, kernel by kernel; the A/B of
# the two wgmma kernels and both dispatchers over the asv shapes in alternating processes; and the report's rested
# and sustained figures at 4096^3 and 8192^3 from each library; the four sanitizers over the two wgmma kernels of
# this commit.
export OUT=${OUT:-/tmp/out}
D=docs/experiments/2026-12-03-hopper-frame
mkdir -p $D/logs
source tools/device_env.sh
step link link_library
link_old() {
    rm -rf /tmp/oldbuild && cp -r build /tmp/oldbuild && cp -r ab/old/. /tmp/oldbuild/ &&
    nvcc -gencode 'arch=compute_90,code=[sm_90,compute_90]' -shared -o /tmp/libold.so \
        $(find /tmp/oldbuild/api /tmp/oldbuild/core /tmp/oldbuild/kernels -name '*.o' | sort) -ldl
}
step link-old link_old
{ nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,power.limit --format=csv; echo "commit $(git rev-parse HEAD)"; date -u; } > $D/logs/call1-environment.txt
step sass bash -c "timeout 120 python3 -m tools.sass_compare /tmp/libold.so matmul_opt/libmatmul.so > $D/logs/call1-sass.txt 2>&1; tail -15 $D/logs/call1-sass.txt"
tar czf $OUT/logs.tgz $D/logs
step ab bash -c "timeout 260 python3 -m tools.ab_compare /tmp/libold.so matmul_opt/libmatmul.so --rounds 3 --kernels wgmma_tf32,wgmma_3xtf32,best_tf32,best_fp32_accurate --json $D/logs/call1-ab.json > $D/logs/call1-ab.txt 2>&1; cat $D/logs/call1-ab.txt"
tar czf $OUT/logs.tgz $D/logs
report() {
    MATMUL_OPT_LIBRARY=$1 timeout 100 python3 -m matmul_opt --kernels wgmma_tf32 wgmma_3xtf32 cublas cublas_tf32 \
        --sizes 4096 8192 --accuracy-k --sustained-sizes 8192 --json $D/logs/call1-report-$2.json > $D/logs/call1-report-$2.txt 2>&1
    tail -25 $D/logs/call1-report-$2.txt
}
step report-old report /tmp/libold.so old
step report-new report $PWD/matmul_opt/libmatmul.so new
tar czf $OUT/logs.tgz $D/logs
step sanitize bash -c "timeout 200 python3 -m tools.sanitize --kernels wgmma_tf32,wgmma_3xtf32 > $D/logs/call1-sanitize.log 2>&1; cp results/latest/sanitizer-*.log $D/logs/ 2>/dev/null; tail -8 $D/logs/call1-sanitize.log"
tar czf $OUT/logs.tgz $D/logs
