#!/usr/bin/env bash
# Device call 1 of this record, from branch column-passes (HEAD), with .gitcarry/s17/lib_main.so.xz (main's build)
# and lib_cols.so.xz (HEAD's: tools/cubin_compare finds only the residue kernel down columns changed, 496 of 497
# kernels the same):
#   1. with lib_cols: ozaki_int8's GPU tests; same_bits_long_k.py of both libraries, compared;
#   2. Nsight Compute: every kernel's time and DRAM throughput of ozaki_int8 at 16384^3 and 4096^3 with both
#      libraries; for main's passes, the SpeedOfLight, Occupancy, LaunchStats, WarpStateStats and
#      MemoryWorkloadAnalysis sections at 16384^3;
#   3. A/B: ozaki_int8 with both libraries in alternating processes, two rounds;
#   4. as CALL_LIMIT allows: ozaki_int8's four sanitizers with lib_cols; best_tf32 and cuBLAS TF32 kernel times at
#      three short-K grid shapes; skinny's bulk kernel at 9000x24x2000 with the sections and InstructionStats;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log1; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
HERE=docs/experiments/2026-12-07-column-passes
OZ=docs/experiments/2026-12-06-ozaki-check/probe.py
ANY=docs/experiments/2026-12-07-bulk-shares/probe.py
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/all.tgz -C /tmp log1; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
times() { python3 $HERE/ncu_times.py "$1"; }
git rev-parse HEAD | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
for lib in lib_main lib_cols; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s17/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_cols.so matmul_opt/libmatmul.so
step tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_gpu_kernels.py \
    tests/test_gpu_hardening.py -k "ozaki" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
for lib in lib_main lib_cols; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "same bits $lib" timeout 60 python3 $HERE/same_bits_long_k.py write \
        /tmp/bits-$lib > $LOG/bits-$lib.txt 2>&1
done
python3 $HERE/same_bits_long_k.py compare /tmp/bits-lib_main /tmp/bits-lib_cols > $LOG/bits-compare.txt 2>&1
tail -3 $LOG/bits-compare.txt; pack
for shape in 16384x16384x16384 4096x4096x4096; do
    for lib in lib_main lib_cols; do
        MATMUL_OPT_LIBRARY=/tmp/$lib.so step "times $lib $shape" timeout 60 ncu --metrics \
            gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed python3 $OZ $shape \
            > $LOG/times-$lib-$shape.txt 2>&1
        times $LOG/times-$lib-$shape.txt
    done
done; pack
fits 120 && MATMUL_OPT_LIBRARY=/tmp/lib_main.so step "sections" timeout 120 ncu \
    --kernel-name 'regex:survey|residues|rebuild|k_products' --section SpeedOfLight --section Occupancy \
    --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis python3 $OZ 16384x16384x16384 \
    > $LOG/sections-main.txt 2>&1
pack
for round in 1 2; do
    for lib in lib_main lib_cols; do
        fits 40 && step "ab $lib $round" timeout 40 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 $AB \
            --shapes 1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192 --kernels ozaki_int8 --rounds 1 \
            --repetitions 10 > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt
    done
done; pack
fits 60 && step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/ 2>/dev/null
pack
for shape in 10000x2000x100 12000x1500x77 2048x12000x128; do
    for kernel in best_tf32 cublas_tf32; do
        fits 30 && MATMUL_OPT_LIBRARY=/tmp/lib_main.so step "tf32 $kernel $shape" timeout 30 ncu --metrics \
            gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed python3 $ANY $kernel $shape \
            > $LOG/tf32-$kernel-$shape.txt 2>&1
        times $LOG/tf32-$kernel-$shape.txt
    done
done; pack
fits 60 && MATMUL_OPT_LIBRARY=/tmp/lib_main.so step "skinny bulk" timeout 60 ncu --kernel-name regex:skinny_bulk \
    --launch-skip 1 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis \
    python3 $ANY best 9000x24x2000 > $LOG/skinny-bulk.txt 2>&1
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
