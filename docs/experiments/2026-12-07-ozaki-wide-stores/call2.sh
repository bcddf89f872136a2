#!/usr/bin/env bash
# Device call 2 of this record, from branch ozaki-wide-stores (HEAD: the row residue pass's 16-byte stores, the grid
# along k first, and lines per warp by the SMs' slots; the rebuild main's), with .gitcarry/s14/lib_survey.so.xz
# (main's library), .gitcarry/s16/lib_rows.so.xz (HEAD's), .gitcarry/repo.bundle (made on the branch) and .whl:
#   1. with lib_rows: ozaki_int8's and the fp32-accurate class's GPU tests; same_bits.py against main's library;
#   2. Nsight Compute's residue-pass times at 1024^3, 2500x700x3000 and 16384^3 with both libraries;
#   3. A/B of ozaki_int8, the two libraries in alternating processes, three rounds;
#   4. ozaki_int8's four sanitizers; asv's Sgemm suite for HEAD where the tests and bits pass; issue 36's report,
#      as CALL_LIMIT allows;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log4; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
BITS=docs/experiments/2026-12-07-ozaki-pass-lean/same_bits.py
AB=docs/experiments/2026-12-06-write-streams/ab.py
PROBE=docs/experiments/2026-12-06-ozaki-check/probe.py
pack() { tar czf $OUT/all.tgz -C /tmp log4 -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log4; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
unxz() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$@"; }
unxz .gitcarry/s14/lib_survey.so.xz /tmp/lib_main.so
unxz .gitcarry/s16/lib_rows.so.xz /tmp/lib_rows.so
cp /tmp/lib_rows.so matmul_opt/libmatmul.so
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_gpu_kernels.py \
    tests/test_gpu_hardening.py tests/test_gpu_precision.py -k "ozaki or fp32_accurate" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
for lib in lib_main lib_rows; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "same bits $lib" timeout 60 python3 $BITS write /tmp/bits-$lib \
        > $LOG/bits-$lib.txt 2>&1
done
python3 $BITS compare /tmp/bits-lib_main /tmp/bits-lib_rows > $LOG/bits-compare.txt 2>&1
bits=$?; tail -1 $LOG/bits-compare.txt; pack
for shape in 1024x1024x1024 2500x700x3000 16384x16384x16384; do
    for lib in lib_main lib_rows; do
        echo "== $shape $lib"
        MATMUL_OPT_LIBRARY=/tmp/$lib.so timeout 30 ncu --kernel-name regex:'residues' \
            --metrics gpu__time_duration.sum,launch__grid_size python3 $PROBE $shape > $LOG/ncu-$shape-$lib.txt 2>&1
        grep -E '::|duration|grid_size' $LOG/ncu-$shape-$lib.txt | paste - - - | sed -E 's/\(Operand.*\) \(/(/; s/ +/ /g'
    done
done; pack
for round in 1 2 3; do
    for lib in lib_main lib_rows; do
        MATMUL_OPT_LIBRARY=/tmp/$lib.so timeout 40 python3 $AB --kernels ozaki_int8 --rounds 1 --repetitions 20 \
            --shapes 1024x1024x1024,2048x2048x2048,1000x1000x4000,2500x700x3000,4096x4096x4096,8192x8192x8192 \
            > $LOG/ab-$lib-$round.txt 2>&1
        grep -v '^\[' $LOG/ab-$lib-$round.txt | sed "s/^/$lib r$round /"
    done
done; pack
fits 45 && step sanitize timeout 45 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/ 2>/dev/null
pack
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && [ $bits = 0 ] && fits 200; then
    step asv timeout 230 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
fits 50 && step report36 timeout 50 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 --json $LOG/report36.json > $LOG/report36.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report36.txt
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
