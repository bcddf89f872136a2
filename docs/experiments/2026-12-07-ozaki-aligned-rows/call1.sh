#!/usr/bin/env bash
# Device call 1 of this record, from branch ozaki-aligned-rows (HEAD), with .gitcarry/s17/lib_main.so.xz (main's
# build) and s18/lib_aligned.so.xz (HEAD's: residue rows of whole K tiles), .gitcarry/repo.bundle (made on HEAD) and
# .whl (the ozaki-ragged-words branch's library stays behind: the carry's 64 MiB):
#   1. with lib_aligned: ozaki_int8's GPU tests; same_bits_long_k.py (the column-passes record's) of lib_main and
#      lib_aligned, compared; ozaki_int8's four sanitizers;
#   2. A/B: ozaki_int8 and cuBLAS fp32 with both libraries in alternating processes, two rounds, at 4096^3, 4097^3,
#      3001x2999x4097, 4096x4096x4112 (K a multiple of 16, not of 128), 4096x4096x4224 (of 128) and 4097x4097x4096
#      (M and N ragged, K not); Nsight Compute's kernel times at 4097^3 with lib_aligned and at 4096^3 with both;
#   3. with lib_main, for issues 32 and 33: the FP32 rungs and the TF32 kernels on the grid shapes where best and
#      best_tf32 lose to cuBLAS (ab.py, two rounds of 10);
#   4. if the tests passed and CALL_LIMIT allows: asv's Sgemm suite for HEAD with lib_aligned;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log1; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
BITS=docs/experiments/2026-12-07-column-passes/same_bits_long_k.py
TIMES=docs/experiments/2026-12-07-column-passes/ncu_times.py
OZ=docs/experiments/2026-12-06-ozaki-check/probe.py
AB=docs/experiments/2026-12-06-write-streams/ab.py
pack() { tar czf $OUT/all.tgz -C /tmp log1 -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log1; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-560} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz_to() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"; }
unxz_to .gitcarry/s17/lib_main.so.xz /tmp/lib_main.so
unxz_to .gitcarry/s18/lib_aligned.so.xz /tmp/lib_aligned.so
cp /tmp/lib_aligned.so matmul_opt/libmatmul.so
step tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_gpu_kernels.py \
    tests/test_gpu_hardening.py -k "ozaki" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
for lib in lib_main lib_aligned; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "same bits $lib" timeout 60 python3 $BITS write /tmp/bits-$lib \
        > $LOG/bits-$lib.txt 2>&1
done
python3 $BITS compare /tmp/bits-lib_main /tmp/bits-lib_aligned > $LOG/bits-compare.txt 2>&1
tail -1 $LOG/bits-compare.txt; pack
SHAPES=4096x4096x4096,4097x4097x4097,3001x2999x4097,4096x4096x4112,4096x4096x4224,4097x4097x4096
for round in 1 2; do
    for lib in lib_main lib_aligned; do
        step "ab $lib $round" timeout 40 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 $AB --shapes $SHAPES \
            --kernels ozaki_int8,cublas --rounds 1 --repetitions 10 > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt
    done
done; pack
for run in "lib_aligned 4097x4097x4097" "lib_aligned 4096x4096x4096" "lib_main 4096x4096x4096"; do
    set -- $run
    MATMUL_OPT_LIBRARY=/tmp/$1.so step "times $1 $2" timeout 40 ncu --metrics \
        gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed python3 $OZ $2 \
        > $LOG/times-$1-$2.txt 2>&1
    python3 $TIMES $LOG/times-$1-$2.txt | grep -E "residues|ozaki|rebuild"
done; pack
step sanitize timeout 45 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/ 2>/dev/null
pack
cp /tmp/lib_main.so matmul_opt/libmatmul.so
LOSING=250x1500x3000,257x3072x1024,385x769x1537,1153x1153x1153,128x4096x4096,10000x2000x100,4096x64x4096
step "fp32 rungs" timeout 90 python3 $AB --shapes $LOSING --kernels best,pipelined,splitk,pairwise,tma,streamk,cublas \
    --rounds 2 --repetitions 10 --json $LOG/fp32-rungs.json > $LOG/fp32-rungs.txt 2>&1
grep -v '^\[' $LOG/fp32-rungs.txt; pack
LOSING=250x1500x3000,200x300x20000,9000x24x2000,300x28672x4096,128x4096x4096,10000x2000x100,32x4096x4096
LOSING+=,12000x1500x77,13x5120x13824,17x8000x8000,2048x4096x11008
step "tf32 kernels" timeout 90 python3 $AB --shapes $LOSING --kernels best_tf32,wgmma_tf32,mma_tf32,best,cublas_tf32,cublas \
    --rounds 2 --repetitions 10 --json $LOG/tf32-kernels.json > $LOG/tf32-kernels.txt 2>&1
grep -v '^\[' $LOG/tf32-kernels.txt; pack
cp /tmp/lib_aligned.so matmul_opt/libmatmul.so
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && fits 200; then
    step asv timeout 210 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
