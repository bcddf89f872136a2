#!/usr/bin/env bash
# Device call 1 of this record, from branch ozaki-pass-lean (HEAD), with .gitcarry/s14/lib_bounds.so.xz (the branch
# below it: main's passes) and lib_pass.so.xz (this branch's tip: the residue pass's float scaling, the rebuild's row
# scale, the column survey's single squares), .gitcarry/repo.bundle (made on the branch) and .whl:
#   1. ozaki_int8's GPU tests and its four sanitizers with lib_pass;
#   2. same_bits.py with both libraries: every product the same bit for bit;
#   3. Nsight Compute's kernel times at 16384^3 and 4096^3 with both;
#   4. A/B rounds of ozaki_int8 with both libraries, each in its own process;
#   5. asv's Sgemm suite for HEAD where 1 and 2 pass, and issue 36's report with lib_pass, as CALL_LIMIT allows;
# everything into one tarball, $OUT/all.tgz, re-packed after each step.
LOG=/tmp/log; mkdir -p $LOG
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
source tools/device_env.sh
HERE=docs/experiments/2026-12-07-ozaki-pass-lean
pack() { tar czf $OUT/all.tgz -C /tmp log -C "$PWD" results/asv 2>/dev/null || tar czf $OUT/all.tgz -C /tmp log; }
fits() { [ $((SECONDS + $1)) -lt ${CALL_LIMIT:-540} ]; }
HEAD=$(git rev-parse HEAD); echo "HEAD $HEAD" | tee $LOG/commit.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee $LOG/gpu.txt
for lib in lib_bounds lib_pass; do
    python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
        .gitcarry/s14/$lib.so.xz /tmp/$lib.so
done
cp /tmp/lib_pass.so matmul_opt/libmatmul.so
step tests timeout 90 python3 -m pytest -q -rfEs -p no:cacheprovider \
    tests/test_gpu_ozaki.py tests/test_gpu_kernels.py tests/test_gpu_hardening.py tests/test_gpu_precision.py \
    -k "ozaki or fp32_accurate" > $LOG/tests.log 2>&1
grep -E '^(FAILED|ERROR)' $LOG/tests.log | head -20; tail -1 $LOG/tests.log
step sanitize timeout 60 python3 -m tools.sanitize --kernels ozaki_int8 --jobs 4 > $LOG/sanitize.log 2>&1
tail -1 $LOG/sanitize.log; mkdir -p $LOG/sanitizers; cp results/latest/sanitizer-*-ozaki_int8.log $LOG/sanitizers/; pack
for lib in lib_bounds lib_pass; do
    MATMUL_OPT_LIBRARY=/tmp/$lib.so step "same bits $lib" timeout 60 python3 $HERE/same_bits.py write /tmp/bits-$lib \
        > $LOG/bits-$lib.txt 2>&1
done
python3 $HERE/same_bits.py compare /tmp/bits-lib_bounds /tmp/bits-lib_pass > $LOG/bits-compare.txt 2>&1
echo $? > $LOG/bits-rc.txt
tail -3 $LOG/bits-compare.txt; pack
for size in 16384 4096; do
    for lib in lib_bounds lib_pass; do
        fits 30 && MATMUL_OPT_LIBRARY=/tmp/$lib.so step "ncu $lib $size" timeout 30 ncu \
            --kernel-name regex:'survey|scaling|k_products|residues|ozaki_int8|rebuild|fixup' \
            --metrics gpu__time_duration.sum python3 docs/experiments/2026-12-06-ozaki-check/probe.py \
            ${size}x${size}x${size} > $LOG/ncu-$lib-$size.txt 2>&1
        grep -E '::|duration' $LOG/ncu-$lib-$size.txt | paste - - | sed -E 's/\(.*duration.sum +us +/ /'
    done
done; pack
SHAPES=1024x1024x1024,4096x4096x4096,8192x8192x8192,16384x16384x16384,5000x3000x7001
ab_round() {
    for lib in "$@"; do
        step "ab $lib $round" timeout 60 env MATMUL_OPT_LIBRARY=/tmp/$lib.so python3 \
            docs/experiments/2026-12-06-write-streams/ab.py --shapes $SHAPES --kernels ozaki_int8 \
            --rounds 1 --repetitions 10 --json $LOG/ab-$lib-$round.json > $LOG/ab-$lib-$round.txt 2>&1
    done
}
fits 80 && round=1 ab_round lib_bounds lib_pass
fits 80 && round=2 ab_round lib_pass lib_bounds; pack
if grep -q passed $LOG/tests.log && ! grep -qE '^(FAILED|ERROR)' $LOG/tests.log && [ "$(cat $LOG/bits-rc.txt)" = 0 ] \
    && fits 200; then
    step asv timeout 330 python3 -m asv run --python=same --set-commit-hash=$HEAD \
        --machine $(python3 -m benchmarks.machine) --bench 'bench_kernels.Sgemm.track_kernel_ms' > $LOG/asv.log 2>&1
    tail -1 $LOG/asv.log; pack
fi
fits 50 && step report36 timeout 50 python3 -m matmul_opt --kernels ozaki_int8 wgmma_3xtf32 cublas \
    --sizes 4096 8192 16384 --sustained-sizes 8192 16384 --verify-size 256 --json $LOG/report36.json > $LOG/report36.txt 2>&1
grep -E "^(4096|8192|16384)x" $LOG/report36.txt
echo "[call: $SECONDS s]" | tee $LOG/done.txt; pack
