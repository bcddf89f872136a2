#!/usr/bin/env bash
# Device call 5 of this record, from branch ozaki-survey, with .gitcarry/s5/lib_main.so.xz (main's library),
# lib_vA.so.xz (branch ozaki-vector: the rebuild's float4 stores and the residue pass's float4 loads with 4 blocks per
# SM), lib_sv.so.xz (this commit's: and one pass over each operand for its lines' maxima and the scaling check's
# sums of squares), .gitcarry/repo.bundle and .whl carried:
#   1. ozaki_int8's GPU tests (and the generic ones that take it) with lib_vA and with lib_sv;
#   2. A/B: ab.py over ozaki_int8, main, lib_vA and lib_sv in alternating processes, round 1;
#   3. the four sanitizers over ozaki_int8 with lib_sv;
#   4. asv's Sgemm suite (kernel times) for this commit, with lib_sv;
#   5. the report's rested and sustained rows of ozaki_int8, wgmma_3xtf32 and cuBLAS with lib_sv;
#   6. A/B rounds 2 and 3, as the call's time allows;
#   7. Nsight Compute's time and DRAM throughput of the passes at 8192^3 and 4096^3, lib_sv.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs; tar czf $FINAL_OUT/asv.tgz results/asv' EXIT
source tools/device_env.sh  # restores the history from the bundle
R=docs/experiments/2026-12-06-ozaki-check
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
for lib in lib_main lib_vA lib_sv; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s5/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_sv.so matmul_opt/libmatmul.so
for lib in lib_sv lib_vA; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "tests $lib" timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider \
        tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
        -k "ozaki or fp32_accurate" > $OUT/tests-$lib.log 2>&1
    grep -E '^(FAILED|ERROR)' $OUT/tests-$lib.log | head -20; tail -1 $OUT/tests-$lib.log
done
SHAPES=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,16384x16384x16384,5000x3000x7001
SHAPES+=,4096x1024x4096,3001x2999x5003
ab_round() {
    for lib in "$@"; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
            --rounds 1 --repetitions 10 --json $OUT/ab-$lib-$round.json > $OUT/ab-$lib-$round.txt 2>&1
    done
}
round=1 ab_round lib_main lib_vA lib_sv
cat $OUT/ab-*-1.txt
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*-ozaki_int8.log $OUT/ 2>/dev/null
step asv timeout 200 python3 -m asv run --python=same --set-commit-hash=$(git rev-parse HEAD) \
    --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $OUT/asv.log 2>&1
tail -3 $OUT/asv.log
step report timeout 120 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k --verify-size 256 > $OUT/report-sv.txt 2>&1
tail -25 $OUT/report-sv.txt
[ $SECONDS -lt 470 ] && round=2 ab_round lib_sv lib_vA lib_main
[ $SECONDS -lt 510 ] && round=3 ab_round lib_main lib_sv lib_vA
[ $SECONDS -lt 540 ] && MATMUL_OPT_LIBRARY=/tmp/lib_sv.so step ncu timeout 45 ncu \
    --kernel-name regex:'survey_along|line_norms|residues_kernel|rebuild_kernel' \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
    python3 $R/probe.py 8192x8192x8192 4096x4096x4096 > $OUT/ncu-sv.txt 2>&1
echo "[call: $SECONDS s]"
