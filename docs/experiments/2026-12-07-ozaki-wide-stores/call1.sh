#!/usr/bin/env bash
# Device call 1 of this record (for the next session: this one's device time ran out), from branch ozaki-wide-stores
# (HEAD), with .gitcarry/s14/lib_survey.so.xz (main's library), .gitcarry/s15/lib_wide.so.xz (the branch's first
# commit: 16-byte residue stores along rows) and lib_head.so.xz (HEAD's: the grid along k first, and the rebuild's
# 16 elements per thread; the product kernel's parameters 8 bytes closer, OzakiModuli::count dropped), and
# .gitcarry/repo.bundle. Between main and lib_wide only the row residue kernel differs;
# between lib_wide and lib_head both residue kernels (the grid) and the rebuild, each timed apart:
#   1. with lib_head: ozaki_int8's GPU tests; same_bits.py (ozaki-pass-lean's) of both against main's library;
#   2. Nsight Compute's residue pass and rebuild times at 16384^3 with all three;
#   3. ozaki_int8's four sanitizers with lib_head, and an A/B round of ozaki_int8 with all three (each in its own
#      process), as CALL_LIMIT allows;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log3; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
BITS=docs/experiments/2026-12-07-ozaki-pass-lean/same_bits.py
pack() { tar czf $OUT/all.tgz -C /tmp log3; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-300} ]; }
git rev-parse HEAD | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    .gitcarry/s14/lib_survey.so.xz /tmp/lib_main.so
for lib in lib_wide lib_head; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s15/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_head.so matmul_opt/libmatmul.so
step tests timeout 60 python3 -m pytest -q -rfEs -p no:cacheprovider tests/test_gpu_ozaki.py tests/test_gpu_kernels.py \
    tests/test_gpu_hardening.py -k "ozaki" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
for lib in lib_main lib_wide lib_head; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "same bits $lib" timeout 40 python3 $BITS write /tmp/bits-$lib \
        > $LOG/bits-$lib.txt 2>&1
done
for lib in lib_wide lib_head; do
    python3 $BITS compare /tmp/bits-lib_main /tmp/bits-$lib > $LOG/bits-compare-$lib.txt 2>&1
    tail -1 $LOG/bits-compare-$lib.txt
done
pack
for lib in lib_main lib_wide lib_head; do
    fits 20 && MATMUL_OPT_LIBRARY=/tmp/$lib.so step "ncu $lib" timeout 20 ncu --kernel-name regex:'residues|rebuild' \
        --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-06-ozaki-check/probe.py 16384x16384x16384 \
        > $LOG/ncu-$lib.txt 2>&1
    grep -E '::|duration' $LOG/ncu-$lib.txt | paste - - | sed -E 's/\(.*duration.sum +//'
done; pack
fits 40 && step sanitize timeout 40 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/ 2>/dev/null
pack
for lib in lib_main lib_wide lib_head; do
    fits 25 && step "ab $lib" timeout 25 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
        docs/experiments/2026-12-06-write-streams/ab.py --shapes 1024x1024x1024,4096x4096x4096,8192x8192x8192 \
        --kernels ozaki_int8 --rounds 1 --repetitions 10 > $LOG/ab-$lib.txt 2>&1
    grep -v '^\[' $LOG/ab-$lib.txt
done
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
