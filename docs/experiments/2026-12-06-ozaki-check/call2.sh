#!/usr/bin/env bash
# Device call 2 of this record, with .gitcarry/s2/lib_new.so.xz (call 1's library: the scaling check over many
# blocks, the column passes' stretches), lib_epi.so.xz (and the epilogue's 4-byte words) and lib_ksq.so.xz (and the
# column k sums' runs sized to the GPU) carried:
#   1. ozaki_int8's GPU tests (and the generic ones that take it) with lib_ksq;
#   2. A/B/C: ab.py over ozaki_int8 and wgmma_3xtf32, the three libraries in rotated order, 3 rounds;
#   3. Nsight Compute over the passes and the product at 4096^3 and 8192^3, lib_ksq;
#   4. the report's rested and sustained rows with lib_ksq;
#   5. the four sanitizers over ozaki_int8 with lib_ksq.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
R=docs/experiments/2026-12-06-ozaki-check
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
for lib in lib_new lib_epi lib_ksq; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s2/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_ksq.so matmul_opt/libmatmul.so
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py \
    tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py -k "ozaki or fp32_accurate" \
    > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
SHAPES=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,16384x16384x16384,5000x3000x7001
SHAPES+=,4096x1024x4096,3001x2999x5003,512x512x131072
for round in 1 2 3; do
    case $round in 1) order="lib_new lib_epi lib_ksq";; 2) order="lib_epi lib_ksq lib_new";; 3) order="lib_ksq lib_new lib_epi";; esac
    for lib in $order; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8,wgmma_3xtf32 \
            --rounds 1 --repetitions 10 --json $OUT/ab-$lib-$round.json > $OUT/ab-$lib-$round.txt 2>&1
    done
done
cat $OUT/ab-*-1.txt
MATMUL_OPT_LIBRARY=/tmp/lib_ksq.so step ncu timeout 100 ncu \
    --kernel-name regex:'line_|k_squares|k_products|scaling_|residues|rebuild|ozaki_int8' \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    python3 $R/probe.py 4096x4096x4096 8192x8192x8192 > $OUT/ncu-ksq.txt 2>&1
step report timeout 120 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas --sizes 4096 8192 16384 \
    --sustained-sizes 8192 16384 --accuracy-k --verify-size 256 > $OUT/report-ksq.txt 2>&1
tail -22 $OUT/report-ksq.txt
step sanitize timeout 150 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*-ozaki_int8.log $OUT/ 2>/dev/null
