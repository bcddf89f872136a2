#!/usr/bin/env bash
# Device call 4 of this record, from branch ozaki-passes-vector, with .gitcarry/s4/lib_main.so.xz (main, call 3's
# library), lib_vB.so.xz (and the rebuild's float4 stores), lib_vA.so.xz (and the residue pass's float4 loads with
# 4 blocks per SM; this commit's library) carried. asv does not run (the session's device time left does not hold
# it), so the branch cannot land from this call:
#   1. ozaki_int8's GPU tests (and the generic ones that take it) with lib_vA;
#   2. A/B: ab.py over ozaki_int8, main and lib_vA alternating, up to 3 rounds as the session's device time allows
#      (lib_vB in the first round only);
#   3. the four sanitizers over ozaki_int8 with lib_vA;
#   4. Nsight Compute's time and DRAM throughput of the residue passes and the rebuild at 8192^3, lib_vA.
export OUT=${OUT:-/tmp/out}
FINAL_OUT=$OUT OUT=/tmp/call-logs && rm -rf $OUT && mkdir -p $OUT
trap 'tar czf $FINAL_OUT/logs.tgz -C /tmp call-logs' EXIT
source tools/device_env.sh
R=docs/experiments/2026-12-06-ozaki-check
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv | tee $OUT/gpu.txt
for lib in lib_main lib_vB lib_vA; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s4/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_vA.so matmul_opt/libmatmul.so
step tests timeout 150 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py \
    tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py -k "ozaki or fp32_accurate" \
    > $OUT/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $OUT/tests.log | head -20; tail -1 $OUT/tests.log
SHAPES=1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,16384x16384x16384,5000x3000x7001
SHAPES+=,4096x1024x4096,3001x2999x5003
for round in 1 2 3; do
    case $round in 1) order="lib_main lib_vA lib_vB";; 2) order="lib_vA lib_main";; 3) order="lib_main lib_vA";; esac
    [ $SECONDS -gt 90 ] && break  # the device time left to the session
    for lib in $order; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
            --rounds 1 --repetitions 10 --json $OUT/ab-$lib-$round.json > $OUT/ab-$lib-$round.txt 2>&1
    done
done
cat $OUT/ab-*-1.txt
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $OUT/sanitize.log 2>&1
tail -6 $OUT/sanitize.log; cp results/latest/sanitizer-*-ozaki_int8.log $OUT/ 2>/dev/null
MATMUL_OPT_LIBRARY=/tmp/lib_vA.so step ncu timeout 30 ncu --kernel-name regex:'residues_kernel|rebuild_kernel' \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
    python3 $R/probe.py 8192x8192x8192 4096x4096x4096 > $OUT/ncu-vA.txt 2>&1
