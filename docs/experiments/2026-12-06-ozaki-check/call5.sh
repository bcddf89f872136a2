#!/usr/bin/env bash
# Device call 5 of this record, from branch ozaki-multicast, with .gitcarry/s6/lib_main.so.xz (main's library),
# lib_sv.so.xz (branch ozaki-survey, whose tip SV is: branch ozaki-vector's float4 rebuild stores and residue loads
# with 4 blocks per SM, and one pass over each operand for its lines' maxima and the scaling check's sums of squares;
# branch ozaki-vector's library alone does not fit the carry beside them), lib_mc.so.xz (branch ozaki-multicast's
# tip: and the product in clusters of two blocks that share their B tile by multicast copies), .gitcarry/repo.bundle
# and .whl carried:
#   1. ozaki_int8's GPU tests (and the generic ones that take it) with lib_sv;
#   2. the four sanitizers over ozaki_int8 with lib_sv;
#   3. asv's Sgemm suite (kernel times) for SV, with lib_sv;
# then, as the call's limit allows (CALL_LIMIT):
#   4. the tests with lib_mc; A/B: ab.py over ozaki_int8, main, lib_sv and lib_mc (where its tests passed) in
#      alternating processes, two rounds;
#   5. the report's rested and sustained rows of ozaki_int8, wgmma_3xtf32 and cuBLAS with lib_sv, then lib_mc;
#   6. A/B round 3; Nsight Compute's time and DRAM throughput of the passes at 8192^3 and 4096^3, lib_sv.
SV=3b94daa1666303777bde96348e4c64e86a495533
export OUT=${OUT:-/tmp/out}  # logs straight into $OUT, so that what ran comes back if the call is cut short
mkdir -p $OUT
source tools/device_env.sh  # restores the history from the bundle
R=docs/experiments/2026-12-06-ozaki-check
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
for lib in lib_main lib_sv lib_mc; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s6/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_sv.so matmul_opt/libmatmul.so
run_tests() {
    MATMUL_OPT_LIBRARY=/tmp/$1.so step "tests $1" timeout $2 python3 -m pytest -q -rfEs -p no:cacheprovider \
        tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
        -k "ozaki or fp32_accurate" > $OUT/tests-$1.log 2>&1
    grep -E '^(FAILED|ERROR)' $OUT/tests-$1.log | head -20; tail -1 $OUT/tests-$1.log
}
run_tests lib_sv 150
SHAPES=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,16384x16384x16384,5000x3000x7001
SHAPES+=,4096x1024x4096,3001x2999x5003
ab_round() {
    for lib in "$@"; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
            --rounds 1 --repetitions 10 --json $OUT/ab-$lib-$round.json > $OUT/ab-$lib-$round.txt 2>&1
    done
}
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*-ozaki_int8.log $OUT/ 2>/dev/null
step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$SV \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log; tar czf $OUT/asv.tgz results/asv
# Later steps as the call's limit (CALL_LIMIT seconds, from the device time left) allows: each starts only where
# it would end in time.
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
MC=  # in the rounds and the report only where its tests passed
fits 40 && run_tests lib_mc 35 && grep -q passed $OUT/tests-lib_mc.log && \
    ! grep -qE '^(FAILED|ERROR)' $OUT/tests-lib_mc.log && MC=lib_mc
fits 20 && round=1 ab_round lib_main lib_sv $MC && cat $OUT/ab-*-1.txt
fits 20 && round=2 ab_round lib_sv $MC lib_main
report() {
    MATMUL_OPT_LIBRARY=/tmp/$1.so step "report $1" timeout 50 python3 -m matmul_opt --kernels ozaki_int8 \
        wgmma_3xtf32 cublas --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --accuracy-k --verify-size 256 \
        > $OUT/report-$1.txt 2>&1
    tail -25 $OUT/report-$1.txt
}
fits 50 && report lib_sv
[ -n "$MC" ] && fits 50 && report lib_mc
fits 20 && round=3 ab_round lib_main $MC lib_sv
fits 30 && MATMUL_OPT_LIBRARY=/tmp/lib_sv.so step ncu timeout 30 ncu \
    --kernel-name regex:'survey_along|line_norms|residues_kernel|rebuild_kernel' \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed\
,sm__warps_active.avg.pct_of_peak_sustained_active \
    python3 $R/probe.py 8192x8192x8192 4096x4096x4096 > $OUT/ncu-sv.txt 2>&1
echo "[call: $SECONDS s]"
